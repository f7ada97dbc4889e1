import type { Deps } from '../../app/deps.js';
import { onCustomerChanged } from '../customers/index.js';
import { followCustomer } from './segment-membership.service.js';

/** Segments' seam subscriptions (named in root/subscriptions.ts): memberships follow customer changes. */
export function subscribeSegments(deps: Deps): void {
  onCustomerChanged(deps.seams, (trx, change) => followCustomer(deps, trx, change));
}
