import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';
import type { PointsType } from './ledger.types.js';

/**
 * THE POINTS SEAM: fired inside the transaction of every change of a loyalty card's points
 * (credit, debit, expiry), after the ledger row and the cached fields are written, and when a
 * loyalty card is given to a holder (assignCardHolder: `type` null, `delta` 0), since what the
 * points mean for a member (their tier) starts then. Tiers
 * subscribe to it: what a subscriber writes commits with the change, and one that throws
 * fails it.
 */
export interface PointsChanged {
  voucherId: string;
  campaignId: string | null;
  /** The card's holder, if it has one. */
  customerId: string | null;
  /** Signed: what the balance moved by. */
  delta: number;
  /** The card's balance after the change. */
  balance: number;
  /** The ledger row's type; null when no points moved (the card was given to a holder). */
  type: PointsType | null;
  /** The time of the change. */
  at: string;
  /** Who caused it: what subscribers emit in consequence (tier events) carries it as its event source. */
  actor: Actor;
}

export const POINTS_CHANGED = seam<Tx, PointsChanged>('ledger.points_changed');

export type PointsChangedSubscriber = Subscriber<Tx, PointsChanged>;

/** Subscribes to points changes (at composition, on the Deps' seams); returns the unsubscribe. */
export const onPointsChanged = (seams: Seams, subscriber: PointsChangedSubscriber): (() => void) =>
  seams.subscribe(POINTS_CHANGED, subscriber);
