import type { Deps } from '../../../app/deps.js';
import { onOrderPaid, onOrderStatusChanged } from '../../orders/index.js';
import { onSegmentEntered } from '../../segments/index.js';
import { earnOnSegmentEntered } from './earning-segment.service.js';
import { earnOnTierChange } from './earning-tiers.service.js';
import { earnOnPaidOrder } from './earning.service.js';
import { onTierChanged } from '../tiers/tiers-changed.seam.js';
import { cancelOrderPendingPoints } from '../pending-points/pending-points.service.js';

/**
 * Loyalty's seam subscriptions (named in root/subscriptions.ts, made on every Deps): a paid
 * order earns points by the programs' earning rules, so do a member's tier move and a
 * customer's entry into a segment; an order that becomes CANCELED cancels its pending points.
 */
export function subscribeEarning(deps: Deps): void {
  onOrderPaid(deps.seams, (trx, paid) => earnOnPaidOrder(deps, trx, paid));
  onTierChanged(deps.seams, (trx, change) => earnOnTierChange(deps, trx, change));
  onSegmentEntered(deps.seams, (trx, entry) => earnOnSegmentEntered(deps, trx, entry));
  onOrderStatusChanged(deps.seams, async (trx, change) => {
    if (change.order.status === 'CANCELED')
      await cancelOrderPendingPoints(trx, change.order.id, change.actor, change.at);
  });
}
