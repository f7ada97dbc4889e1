import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { sumPointsEarned } from './points-earned.repository.js';

/**
 * Points a loyalty card earned (added, accrued, activated; not what was removed, spent or
 * expired) from `since` (an ISO time) on, inside the caller's transaction. Tiers qualified by
 * POINTS_IN_PERIOD read it.
 */
export const pointsEarnedSince = (trx: Kysely<Database>, voucherId: string, since: string): Promise<number> =>
  sumPointsEarned(trx, voucherId, since);
