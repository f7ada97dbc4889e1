import { AppError, type ErrorKey } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { lockExpiry, lockSession, type Reservation, type TtlUnit } from '../../sessions/index.js';
import { pointsOf } from './loyalty-spend.service.js';
import type { Plan } from './redemption-plan.service.js';
import type { Tx } from '../../../db/engine.js';
import type { StackableBody } from './redemptions.schemas.js';

/**
 * A validation's LOCK session (voucherify-facts 1.17): what it answers, and what it holds once
 * valid: one redemption of each voucher with a limited quantity, a gift card's credits used,
 * a loyalty card's points spent, a reward's unit when its stock is limited. A
 * session of only `{type: LOCK}` lasts 7 days; a key is made when none is sent.
 */
export interface SessionLock {
  key: string;
  type: 'LOCK';
  ttl: number;
  ttl_unit: TtlUnit;
}

export function sessionLockOf(body: StackableBody): SessionLock | null {
  const session = body.session;
  if (session?.type !== 'LOCK') return null;
  const timed = session.ttl !== undefined;
  return {
    key: session.key ?? newId('ssn_'),
    type: 'LOCK',
    ttl: timed ? session.ttl! : 7,
    ttl_unit: timed ? (session.ttl_unit as TtlUnit) : 'DAYS',
  };
}

export function reservationsOf(plan: Plan): Reservation[] {
  const held: Reservation[] = [];
  for (const applied of plan.applied) {
    const voucher = applied.loaded.voucher;
    if (!voucher) continue;
    if (voucher.redemption_quantity !== null) held.push({ kind: 'QUANTITY', target_id: voucher.id, amount: 1 });
    const credits = voucher.type === 'GIFT_VOUCHER' ? (applied.effect?.credits_used ?? 0) : 0;
    if (credits > 0) held.push({ kind: 'CREDITS', target_id: voucher.id, amount: credits });
    if (voucher.type !== 'LOYALTY_CARD' || !applied.loaded.reward) continue;
    const points = pointsOf(applied);
    if (points > 0) held.push({ kind: 'POINTS', target_id: voucher.id, amount: points });
    const reward = applied.loaded.reward.reward;
    if (reward.stock !== null) held.push({ kind: 'REWARD', target_id: reward.id, amount: 1 });
  }
  return held;
}

const LOST: Record<Reservation['kind'], ErrorKey> = {
  QUANTITY: 'quantity_exceeded',
  CREDITS: 'gift_amount_exceeded',
  POINTS: 'loyalty_card_points_exceeded',
  REWARD: 'reward_out_of_stock',
};

/**
 * Holds the plan's reservations for the session, in the caller's transaction (the one that
 * planned it). A reservation that cannot be held refuses the validation with that failure's
 * 400, and the transaction rolls back: nothing is held then.
 */
export async function holdSession(trx: Tx, lock: SessionLock, plan: Plan, at: string): Promise<void> {
  const expiresAt = lockExpiry(at, lock.ttl, lock.ttl_unit);
  const failed = await lockSession(trx, { key: lock.key, expiresAt, at }, reservationsOf(plan));
  if (failed)
    throw new AppError(
      LOST[failed.kind],
      `${failed.target_id} has not ${failed.amount} left to hold for session ${lock.key}`,
    );
}
