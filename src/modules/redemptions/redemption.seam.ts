import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';
import type { Customer } from './pipeline/redemption-customer.service.js';
import type { RedemptionObject, RedemptionRow } from './redemptions.presenter.js';

/**
 * THE REDEMPTION SEAMS, fired inside the redemption's (or rollback's) transaction once its
 * records are written: what a subscriber writes (webhooks' outbox) commits with them, and a
 * refused request, rolled back, fires nothing that stays.
 */
export interface RedemptionsSucceeded {
  /** Each redeemable's redemption record (a stack's children; a single one alone). */
  records: RedemptionRow[];
  /**
   * The same records as the answer shows them, presented at the first call and kept: a
   * subscriber that needs them (a webhook that wants the event) presents them inside the
   * transaction and the answer reuses them; otherwise the answer presents them once the
   * writer is free.
   */
  presented(): RedemptionObject[];
  /** The customer as the redemption recorded it, if it named one. */
  customer: Customer | null;
  actor: Actor;
  at: string;
}

export interface RedemptionsRolledBack {
  /** Each rollback record, and the redemption it rolled back, in the same order. */
  rollbacks: RedemptionRow[];
  originals: RedemptionRow[];
  customer: Customer | null;
  actor: Actor;
  at: string;
}

export const REDEMPTIONS_SUCCEEDED = seam<Tx, RedemptionsSucceeded>('redemption.succeeded');
export const REDEMPTIONS_ROLLED_BACK = seam<Tx, RedemptionsRolledBack>('redemption.rollback.succeeded');

export const onRedemptionsSucceeded = (seams: Seams, subscriber: Subscriber<Tx, RedemptionsSucceeded>): (() => void) =>
  seams.subscribe(REDEMPTIONS_SUCCEEDED, subscriber);
export const onRedemptionsRolledBack = (
  seams: Seams,
  subscriber: Subscriber<Tx, RedemptionsRolledBack>,
): (() => void) => seams.subscribe(REDEMPTIONS_ROLLED_BACK, subscriber);
