import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { timeOrderedId } from '../../lib/ids.js';
import { findLiveCampaign, type CampaignRow } from '../campaigns/index.js';
import { addLoyaltyPoints, adjustGiftBalanceInSummary, findSimpleCustomer } from '../customers/index.js';
import { type CustomerEventType, emit } from '../events/index.js';
import {
  TYPE_EFFECTS,
  isPointsType,
  type LedgerEntryType,
  type LedgerOperationType,
  type PointsType,
} from './ledger.types.js';
import { presentBalance, presentCard, presentTransaction } from './ledgers.presenter.js';
import * as repo from './ledgers.repository.js';
import { POINTS_CHANGED } from './points-changed.seam.js';
import type { Db, Tx } from '../../db/engine.js';

export type { Db };
import { LEDGER_ENTRY_WRITTEN } from './ledger-entry.seam.js';

/**
 * What every ledger change shares, points or credits: the source_id replay, the guarded
 * balance UPDATE, the row, and the effects on the holder (loyalty points or gift summary,
 * events) and the points seam. The points and gift services add buckets and draws.
 */
export type LedgerDeps = Pick<Deps, 'seams'>;

/** Ids of what caused the change, answered under `details` (and kept for rollbacks). */
export interface RelatedIds {
  order_id?: string | null;
  redemption_id?: string | null;
  rollback_id?: string | null;
  reward_id?: string | null;
  earning_rule_id?: string | null;
  pending_points_id?: string | null;
  related_transaction_id?: string | null;
}

export interface LedgerChangeInput {
  voucherId: string;
  /** Points or credits (minor units) moved: a positive integer. */
  amount: number;
  reason?: string | null;
  /** The merchant's transaction id: a second change with it on the same card replays the first. */
  sourceId?: string | null;
  /** The channel (X-Voucherify-Channel, or the command line). */
  source?: string | null;
  operationType?: LedgerOperationType;
  related?: RelatedIds;
  /** Further details as answered, by key: `{ order: { source_id }, reward: { name }, loyalty_tier: {...} }`. */
  details?: Record<string, Record<string, unknown>>;
  actor: Actor;
  at: string;
  /** The card as the caller just read it in this transaction (by its id): saves reading it again. */
  card?: repo.CardFields;
}

export interface LedgerResult {
  entry: repo.LedgerEntryRow;
  card: repo.CardFields;
  /** True when source_id named an earlier change: nothing was written. */
  replayed: boolean;
}

export function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new AppError('invalid_amount', `The amount must be a positive integer, got ${amount}`);
}

/** The earlier change of the same source_id on this card, if any. */
export async function findReplay(trx: Tx, input: LedgerChangeInput): Promise<LedgerResult | undefined> {
  if (input.sourceId === undefined || input.sourceId === null) return undefined;
  const entry = await repo.findEntryBySourceId(trx, input.voucherId, input.sourceId);
  if (!entry) return undefined;
  const card = await repo.findCard(trx, entry.voucher_id);
  return card && { entry, card, replayed: true };
}

/** The card the change is for, of the kind the type needs (404 / 400 invalid_voucher otherwise). */
export async function findCardFor(
  trx: Tx,
  voucherId: string,
  type: LedgerEntryType,
  known?: repo.CardFields,
): Promise<repo.CardFields> {
  const card = known?.id === voucherId ? known : await repo.findCard(trx, voucherId);
  if (!card) throw notFound('voucher', voucherId);
  const wanted = isPointsType(type) ? 'LOYALTY_CARD' : 'GIFT_VOUCHER';
  if (card.type !== wanted)
    throw new AppError('invalid_voucher', `${type} needs a ${wanted}; ${card.code} is a ${card.type}`);
  return card;
}

/** Why the guarded UPDATE refused: a debit beyond the balance, or a refund beyond what was redeemed. */
const exceeded = (type: LedgerEntryType, card: repo.CardFields, amount: number): AppError =>
  TYPE_EFFECTS[type].sign > 0
    ? new AppError(
        'invalid_amount',
        `Cannot refund ${amount} points to ${card.code}: ${card.redeemed_points} were redeemed`,
      )
    : isPointsType(type)
      ? new AppError(
          'loyalty_card_points_exceeded',
          `Cannot take ${amount} points from ${card.code}: its balance is ${card.loyalty_balance ?? 0}`,
        )
      : new AppError(
          'gift_amount_exceeded',
          `Cannot take ${amount} from gift card ${card.code}: its balance is ${card.gift_balance ?? 0}`,
        );

/** The ledger row of a change, with the balance and lifetime total the guarded UPDATE returned. */
export function entryRow(
  card: repo.CardFields,
  shifted: repo.CardFields,
  type: LedgerEntryType,
  input: LedgerChangeInput,
  bucketId: string | null,
): repo.LedgerEntryRow {
  const points = isPointsType(type);
  const related = input.related ?? {};
  return {
    seq: 0,
    id: timeOrderedId('vtx_', input.at),
    voucher_id: card.id,
    campaign_id: card.campaign_id,
    customer_id: card.holder_id,
    type,
    delta: TYPE_EFFECTS[type].sign * input.amount,
    balance: (points ? shifted.loyalty_balance : shifted.gift_balance) ?? 0,
    total: (points ? shifted.loyalty_points : shifted.gift_amount) ?? 0,
    reason: input.reason ?? null,
    source_id: input.sourceId ?? null,
    source: input.source ?? null,
    operation_type: input.operationType ?? 'MANUAL',
    order_id: related.order_id ?? null,
    redemption_id: related.redemption_id ?? null,
    rollback_id: related.rollback_id ?? null,
    reward_id: related.reward_id ?? null,
    earning_rule_id: related.earning_rule_id ?? null,
    pending_points_id: related.pending_points_id ?? null,
    related_transaction_id: related.related_transaction_id ?? null,
    bucket_id: bucketId,
    details: input.details && Object.keys(input.details).length > 0 ? JSON.stringify(input.details) : null,
    created_at: input.at,
  };
}

/**
 * The guarded UPDATE of the balance and its counter, then the ledger row. Throws (leaving
 * nothing written by this change) when the balance or the counter would go below zero.
 */
export async function writeEntry(
  trx: Tx,
  card: repo.CardFields,
  type: LedgerEntryType,
  input: LedgerChangeInput,
  /** Points credits: puts the points in their bucket once the guard passed; gives the bucket's id. */
  intoBucket?: () => Promise<string>,
): Promise<LedgerResult> {
  const effect = TYPE_EFFECTS[type];
  const points = isPointsType(type);
  const shifted = await repo.shiftBalance(trx, {
    voucherId: card.id,
    balanceColumn: points ? 'loyalty_balance' : 'gift_balance',
    delta: effect.sign * input.amount,
    counter: effect.counter && { column: effect.counter.column, delta: effect.counter.sign * input.amount },
    // Expiry takes what is due whatever a session holds; every other debit leaves it.
    respectReserved: effect.sign < 0 && type !== 'POINTS_EXPIRATION',
    at: input.at,
  });
  // The refusal quotes the card as the guard found it: on PostgreSQL the UPDATE may have waited for
  // another writer and checked that writer's balance, not the one `card` was read with.
  if (!shifted) throw exceeded(type, (await repo.findCard(trx, card.id)) ?? card, input.amount);
  const entry = entryRow(card, shifted, type, input, intoBucket ? await intoBucket() : null);
  const { seq: _seq, ...row } = entry;
  await repo.insertEntry(trx, row);
  return { entry, card: shifted, replayed: false };
}

const EVENTS: Partial<Record<LedgerEntryType, CustomerEventType[]>> = {
  POINTS_ADDITION: ['customer.voucher.loyalty_card.points_added'],
  PENDING_POINTS_ACTIVATION: ['customer.voucher.loyalty_card.points_added'],
  POINTS_ACCRUAL: ['customer.rewarded.loyalty_points', 'customer.voucher.loyalty_card.points_added'],
  POINTS_EXPIRATION: ['customer.voucher.loyalty_card.points_expired'],
  CREDITS_ADDITION: ['customer.voucher.gift.balance_added'],
};

/**
 * The change's effects beyond the card, in its transaction: the holder's loyalty points (or
 * gift summary) and events, then the points seam. A card without a (live) holder has no
 * customer to tell.
 */
export async function applyEffects(
  deps: LedgerDeps,
  trx: Tx,
  result: LedgerResult,
  actor: Actor,
  known?: { campaign: CampaignRow | undefined },
): Promise<void> {
  const { entry, card } = result;
  const customer = card.holder_id === null ? undefined : await findSimpleCustomer(trx, card.holder_id);
  const campaign = known
    ? known.campaign
    : card.campaign_id === null
      ? undefined
      : await findLiveCampaign(trx, card.campaign_id);
  if (customer) {
    const at = entry.created_at;
    if (!isPointsType(entry.type))
      await adjustGiftBalanceInSummary(trx, { customer_id: customer.id, delta: entry.delta, at });
    else if (campaign)
      await addLoyaltyPoints(trx, {
        customer_id: customer.id,
        campaign: { id: campaign.id, name: campaign.name },
        points: entry.delta,
        at,
      });
    const data = {
      customer,
      voucher: presentCard(card),
      balance: presentBalance(entry, isPointsType(entry.type) ? 'points' : 'amount'),
      transaction: presentTransaction(entry),
    };
    for (const type of EVENTS[entry.type] ?? []) {
      await emit(trx, {
        type,
        customer_id: customer.id,
        data,
        actor,
        created_at: at,
        campaign: campaign && { id: campaign.id, type: campaign.campaign_type },
      });
    }
  }
  await deps.seams.fire(LEDGER_ENTRY_WRITTEN, trx, { entry, card, customer: customer ?? null, actor });
  if (isPointsType(entry.type)) {
    await deps.seams.fire(POINTS_CHANGED, trx, {
      voucherId: card.id,
      campaignId: card.campaign_id,
      customerId: customer?.id ?? null,
      delta: entry.delta,
      balance: entry.balance,
      type: entry.type as PointsType,
      at: entry.created_at,
      actor,
    });
  }
}
