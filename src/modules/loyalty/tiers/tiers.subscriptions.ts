import type { Deps } from '../../../app/deps.js';
import { onPointsChanged } from '../../ledgers/index.js';
import { recomputeMemberTier } from './tiers-members.service.js';

/** Tiers' seam subscription (named in root/subscriptions.ts, made on every Deps): every points change recomputes the card's tier. */
export function subscribeTiers(deps: Deps): void {
  onPointsChanged(deps.seams, (trx, change) => recomputeMemberTier(deps, trx, change));
}
