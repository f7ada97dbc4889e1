import type { Tx } from '../../db/engine.js';
import { programExpiryDate, type ExpirationRules } from '../../engine/loyalty/points-expiry.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { findLiveCampaign, type CampaignRow, templateOf } from '../campaigns/index.js';
import { NEVER_EXPIRES, type PointsCreditType, type PointsDebitType } from './ledger.types.js';
import {
  applyEffects,
  checkAmount,
  findCardFor,
  findReplay,
  writeEntry,
  type Db,
  type LedgerChangeInput,
  type LedgerDeps,
  type LedgerResult,
} from './ledger-write.service.js';
import * as repo from './ledgers.repository.js';
import * as bucketsRepo from './points-buckets.repository.js';

/**
 * THE POINTS LEDGER: the one way any module adds or takes a loyalty card's points. Each
 * function runs INSIDE the caller's (IMMEDIATE) transaction, so earning, rewards and
 * redemptions compose it into their own change: one guarded UPDATE of the card, one ledger
 * row, the buckets, the holder's loyalty points, events and the points seam, all or nothing.
 */

/** When added points expire: the program's rules (the default), never, or a given day. */
export type PointsExpiration =
  | { type: 'PROGRAM_RULES' }
  | { type: 'NON_EXPIRING' }
  | { type: 'CUSTOM_DATE'; date: string };

export interface PointsCreditInput extends LedgerChangeInput {
  type?: PointsCreditType;
  expiration?: PointsExpiration;
}

export interface PointsDebitInput extends LedgerChangeInput {
  type?: PointsDebitType;
}

/** The bucket date of the credit: 400 invalid_expiration_date for a day already past. */
function expiryOf(campaign: CampaignRow | undefined, expiration: PointsExpiration, at: string): string {
  const today = at.slice(0, 10);
  if (expiration.type === 'NON_EXPIRING') return NEVER_EXPIRES;
  if (expiration.type === 'CUSTOM_DATE') {
    if (expiration.date < today)
      throw new AppError('invalid_expiration_date', 'Expiration date cannot be set in the past');
    return expiration.date;
  }
  const rules = (campaign ? templateOf(campaign)?.loyalty_card?.expiration_rules : undefined) as
    | ExpirationRules
    | undefined;
  return programExpiryDate(rules, today) ?? NEVER_EXPIRES;
}

type Next = { expires_on: string; total_points: number } | null;

/**
 * The card's next expiration (its soonest bucket with points) on the voucher, when it changed.
 * The change knows it without a read: the bucket a credit filled, or the first a debit left.
 */
async function setNextExpiration(trx: Tx, card: repo.CardFields, next: Next): Promise<repo.CardFields> {
  const date = next?.expires_on ?? null;
  const points = next?.total_points ?? 0;
  if (card.loyalty_next_expiration_date === date && card.loyalty_next_expiration_points === points) return card;
  await repo.setNextExpiration(trx, card.id, date, points);
  return { ...card, loyalty_next_expiration_date: date, loyalty_next_expiration_points: points };
}

/** After a credit into `bucket`: it is the next expiration when it expires no later than the card's. */
function nextAfterCredit(card: repo.CardFields, bucket: NonNullable<Next>): Next {
  const current = card.loyalty_next_expiration_date;
  const kept: Next =
    current === null ? null : { expires_on: current, total_points: card.loyalty_next_expiration_points ?? 0 };
  if (bucket.expires_on === NEVER_EXPIRES) return kept;
  return current === null || bucket.expires_on <= current ? bucket : kept;
}

/** Adds points (POINTS_ADDITION unless told) into the bucket of their expiry date. */
export async function creditPoints(deps: LedgerDeps, trx: Tx, input: PointsCreditInput): Promise<LedgerResult> {
  checkAmount(input.amount);
  const replay = await findReplay(trx, input);
  if (replay) return replay;
  const type = input.type ?? 'POINTS_ADDITION';
  const card = await findCardFor(trx, input.voucherId, type, input.card);
  const campaign = card.campaign_id === null ? undefined : await findLiveCampaign(trx, card.campaign_id);
  const expiresOn = expiryOf(campaign, input.expiration ?? { type: 'PROGRAM_RULES' }, input.at);
  let bucket: NonNullable<Next> = { expires_on: expiresOn, total_points: 0 };
  const intoBucket = async () => {
    const filled = await bucketsRepo.addToBucket(trx, {
      id: newId('lopb_'),
      voucherId: card.id,
      campaignId: card.campaign_id,
      expiresOn,
      points: input.amount,
      at: input.at,
    });
    bucket = filled;
    return filled.id;
  };
  const written = await writeEntry(trx, card, type, input, intoBucket);
  const result = { ...written, card: await setNextExpiration(trx, written.card, nextAfterCredit(card, bucket)) };
  await applyEffects(deps, trx, result, input.actor, { campaign });
  return result;
}

/**
 * Takes a debit's points from the buckets, soonest-expiring first and never-expiring last,
 * recording each draw. Runs after the guarded UPDATE passed, so the buckets hold enough.
 * Returns the card's next expiration after it.
 */
export async function takeFromBuckets(
  trx: Tx,
  voucherId: string,
  entryId: string,
  points: number,
  at: string,
): Promise<Next> {
  const draws: Array<{ entry_id: string; bucket_id: string; points: number }> = [];
  let left = points;
  let next: Next = null;
  for (const bucket of await bucketsRepo.listOpenBuckets(trx, voucherId)) {
    const take = Math.min(left, bucket.total_points);
    if (take > 0) {
      if (!(await bucketsRepo.takeFromBucket(trx, bucket.id, take, at)))
        throw new AppError('internal_error', `Bucket ${bucket.id} changed under a debit`);
      draws.push({ entry_id: entryId, bucket_id: bucket.id, points: take });
      left -= take;
    }
    if (next === null && bucket.total_points > take && bucket.expires_on < NEVER_EXPIRES)
      next = { expires_on: bucket.expires_on, total_points: bucket.total_points - take };
    if (left === 0 && next !== null) break;
  }
  // The buckets sum to the balance the guarded UPDATE just checked, so this is a broken invariant.
  if (left > 0)
    throw new AppError(
      'internal_error',
      `The buckets of ${voucherId} hold ${points - left} points, less than its balance`,
    );
  await bucketsRepo.insertDraws(trx, draws);
  return next;
}

/**
 * Removes points (POINTS_REMOVAL unless told): the guarded UPDATE, the row, then the draws.
 * More than the balance: 400 loyalty_card_points_exceeded, nothing written.
 */
export async function debitPoints(deps: LedgerDeps, trx: Tx, input: PointsDebitInput): Promise<LedgerResult> {
  checkAmount(input.amount);
  const replay = await findReplay(trx, input);
  if (replay) return replay;
  const type = input.type ?? 'POINTS_REMOVAL';
  const card = await findCardFor(trx, input.voucherId, type, input.card);
  const written = await writeEntry(trx, card, type, input);
  const next = await takeFromBuckets(trx, card.id, written.entry.id, input.amount, input.at);
  const result = { ...written, card: await setNextExpiration(trx, written.card, next) };
  await applyEffects(deps, trx, result, input.actor);
  return result;
}

/**
 * Moves a card's pending points (the earning engineer's pending points: + when created, -
 * when activated or canceled), in one guarded statement; 400 invalid_amount below zero.
 */
export async function adjustPendingPoints(
  trx: Tx,
  input: { voucherId: string; delta: number; at: string },
): Promise<repo.CardFields> {
  if (!Number.isSafeInteger(input.delta))
    throw new AppError('invalid_amount', `Pending points must change by an integer, got ${input.delta}`);
  const card = await repo.shiftPendingPoints(trx, input.voucherId, input.delta, input.at);
  if (!card) throw new AppError('invalid_amount', `The pending points of ${input.voucherId} cannot go below zero`);
  return card;
}
