import type { Tx } from '../../db/engine.js';
import { sumPointsEarned } from './points-earned.repository.js';

/**
 * Points a loyalty card earned (added, accrued, activated; not what was removed, spent or
 * expired) from `since` (an ISO time) on, inside the caller's transaction. Tiers qualified by
 * POINTS_IN_PERIOD read it.
 */
export const pointsEarnedSince = (trx: Tx, voucherId: string, since: string): Promise<number> =>
  sumPointsEarned(trx, voucherId, since);
