import type { TierMove } from '../../../engine/loyalty/tiers.js';
import type { Actor } from '../../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../../lib/seams.js';
import type { Tx } from '../../../db/engine.js';

/**
 * THE TIER SEAM: fired inside the transaction of a points change that moved a member's tier,
 * after the member's tier is stored and its event written. Earning rules on
 * customer.loyalty.tier.* subscribe: what they credit changes points again, which may move the
 * tier again (a finite chain: a tier is joined once per move).
 */
/** The customer event a move writes (events.types.ts), which webhooks send as it is. */
export type TierEventType =
  | 'customer.loyalty.tier.joined'
  | 'customer.loyalty.tier.left'
  | 'customer.loyalty.tier.upgraded'
  | 'customer.loyalty.tier.downgraded'
  | 'customer.loyalty.tier.prolonged';

export interface TierChanged {
  move: TierMove;
  /** The move's customer event, or null when the card has no holder (no event is written). */
  event: { type: TierEventType; data: Record<string, unknown> } | null;
  voucherId: string;
  campaignId: string;
  customerId: string | null;
  /** The tier the member is in now (null: it left every tier). */
  tierId: string | null;
  /** The tier it was in before (null: it joined). */
  previousTierId: string | null;
  actor: Actor;
  at: string;
}

export const TIER_CHANGED = seam<Tx, TierChanged>('loyalty.tier_changed');

/** Subscribes to members' tier moves (at composition); returns the unsubscribe. */
export const onTierChanged = (seams: Seams, subscriber: Subscriber<Tx, TierChanged>): (() => void) =>
  seams.subscribe(TIER_CHANGED, subscriber);
