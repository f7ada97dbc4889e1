import type { Deps } from '../../../app/deps.js';
import { AppError } from '../../../lib/errors.js';
import { timeOrderedId } from '../../../lib/ids.js';
import { RawJson } from '../../../lib/raw-json.js';
import { recordRedemptionInSummary } from '../../customers/index.js';
import { emitMany, type CustomerEventInput } from '../../events/index.js';
import type { CampaignType } from '../../../lib/enums.js';
import { debitGift } from '../../ledgers/index.js';
import { recordOrderRedemption } from '../../orders/index.js';
import { claimVoucherRedemption } from '../../vouchers/index.js';
import { calculatedOrder } from './calculated-order.rules.js';
import { failure, isFailureKey, type Failure } from './redeemable-check.rules.js';
import { relatedObjectOf, type LoadedRedeemable } from './redeemable-load.service.js';
import type { AppliedRedeemable, Plan } from './redemption-plan.service.js';
import type { Tx } from '../../../db/engine.js';
import { presentWrittenRedemption, type RedemptionObject, type RedemptionRow } from '../redemptions.presenter.js';
import { insertRedemptions } from '../redemptions.repository.js';
import { childRow, parentRow, type RowContext } from './redemption-rows.rules.js';
import { spendLoyalty, type LoyaltySpend } from './loyalty-spend.service.js';
import { Refusal } from './redemption-refusal.rules.js';
import { REDEMPTIONS_SUCCEEDED } from '../redemption.seam.js';

export { Refusal };

/**
 * The write stage, inside the request's one transaction: each applied redeemable's guarded
 * counters (the voucher's redemption quantity, the gift card's credits, the loyalty card's
 * points and the reward's stock), the parent and child redemptions, the order's discounts and
 * `redemptions` map, the customer's summary and the events. A guarded statement that loses a
 * race throws a Refusal for its redeemable: the transaction rolls back and the request is
 * refused like any other failure.
 */
type WriteDeps = Pick<Deps, 'seams' | 'clock'>;

/** The redeemable's own AppErrors with a failure key (gift_amount_exceeded...) as its Refusal. */
async function asRefusal<T>(loaded: LoadedRedeemable, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && isFailureKey(error.key)) throw new Refusal(loaded, failure(error.key));
    throw error;
  }
}

interface Spent {
  giftAmount: number | null;
  loyalty: LoyaltySpend | null;
}

async function spend(
  deps: WriteDeps,
  trx: Tx,
  applied: AppliedRedeemable,
  ids: { child: string; orderId: string | null },
  ctx: RowContext,
  plan: Plan,
): Promise<Spent> {
  const { loaded, effect } = applied;
  const voucher = loaded.voucher;
  if (!voucher) return { giftAmount: null, loyalty: null };
  if (!(await claimVoucherRedemption(trx, voucher.id, ctx.at))) throw new Refusal(loaded, failure('quantity_exceeded'));
  const related = { order_id: ids.orderId, redemption_id: ids.child };
  if (voucher.type === 'GIFT_VOUCHER') {
    const credits = effect?.credits_used ?? 0;
    // The card as the plan read it in this transaction: the guarded debit needs no second read.
    if (credits > 0)
      await debitGift(deps, trx, {
        voucherId: voucher.id,
        amount: credits,
        type: 'CREDITS_REDEMPTION',
        related,
        actor: ctx.actor,
        at: ctx.at,
        card: voucher,
      });
    return { giftAmount: credits, loyalty: null };
  }
  if (voucher.type === 'LOYALTY_CARD')
    return {
      giftAmount: null,
      loyalty: await spendLoyalty(deps, trx, applied, { ...related, customer: plan.customer, ctx }),
    };
  return { giftAmount: null, loyalty: null };
}

const CAMPAIGN_TYPE_OF: Record<string, CampaignType> = {
  DISCOUNT_VOUCHER: 'DISCOUNT_COUPONS',
  GIFT_VOUCHER: 'GIFT_VOUCHERS',
  LOYALTY_CARD: 'LOYALTY_PROGRAM',
};

/** A record written, with the redeemable it records (its event's campaign). */
type Announced = { row: RedemptionRow; loaded: LoadedRedeemable };
type RedemptionEvent = 'customer.redemption.succeeded' | 'customer.redemption.failed';

/**
 * A redemption's event names its record instead of copying it (sql/0038): the feed shows the
 * record as written, {customer, redemption, voucher, promotion_tier} (redemption-events.service.ts).
 */
function eventOf(
  { row, loaded }: Announced,
  customer: NonNullable<RowContext['customer']>,
  ctx: RowContext,
  type: RedemptionEvent,
): CustomerEventInput {
  const campaignId = row.campaign_id;
  const campaignType = loaded.tier ? 'PROMOTION' : loaded.voucher ? CAMPAIGN_TYPE_OF[loaded.voucher.type] : undefined;
  return {
    type,
    customer_id: customer.id,
    actor: ctx.actor,
    created_at: ctx.at,
    redemption_id: row.id,
    ...(campaignId ? { campaign: { id: campaignId, type: campaignType ?? null } } : {}),
  };
}

/**
 * The customer's summary and events for redemptions of one outcome (a stack's children, or a
 * refusal's failed redemption): one summary statement with their sums, one insert of their
 * events, in the rows' order.
 */
async function announce(trx: Tx, rows: Announced[], ctx: RowContext, type: RedemptionEvent) {
  const customer = ctx.customer;
  if (!customer || rows.length === 0) return;
  const sum = (pick: (row: RedemptionRow) => number | null) =>
    rows.reduce((total, { row }) => total + (pick(row) ?? 0), 0);
  await recordRedemptionInSummary(trx, {
    customer_id: customer.id,
    result: type === 'customer.redemption.succeeded' ? 'SUCCESS' : 'FAILURE',
    count: rows.length,
    gift_amount: sum((row) => row.gift_amount),
    loyalty_points: sum((row) => row.loyalty_points),
    at: ctx.at,
  });
  await emitMany(
    trx,
    rows.map((announced) => eventOf(announced, customer, ctx, type)),
  );
}

export interface RedemptionWritten {
  /**
   * Null for a single redemption (the legacy calls): its one child stands alone. The row, not
   * its answer: presenting it waits until the transaction has let the writer go.
   */
  parent: RedemptionRow | null;
  /** The children's answers, presented at the first call (RedemptionsSucceeded.presented). */
  children: () => RedemptionObject[];
  /** The parent's order snapshot: the answer's `order` is that very text. */
  order: RawJson | null;
}

/** A row's order snapshot as written, to be copied as is into its answer and event. */
const snapshotOf = (row: RedemptionRow): RawJson | null =>
  row.order_snapshot === null ? null : new RawJson(row.order_snapshot);

/**
 * The order's redemptions map with this request's entry: the parent's with its stacked
 * children, or a single redemption's own (related to its voucher or tier, as the legacy
 * endpoints write it).
 */
function redemptionsMap(plan: Plan, parentId: string | null, childIds: string[], at: string): Record<string, unknown> {
  const previous = plan.order?.redemptions ?? {};
  if (parentId !== null)
    return {
      ...previous,
      [parentId]: { date: at, related_object_type: 'redemption', related_object_id: parentId, stacked: childIds },
    };
  const related = relatedObjectOf(plan.applied[0]!.loaded);
  const entry = {
    date: at,
    related_object_type: related.type,
    related_object_id: related.id,
    ...(related.campaignId ? { related_object_parent_id: related.campaignId } : {}),
  };
  return { ...previous, [childIds[0] as string]: entry };
}

/**
 * The order as the redemption leaves it: its discounts and `redemptions` map, in one update of
 * a stored order, or in the insert of a new one (pending, with the events that insert causes).
 * Written before the redeemables' spending, where a new order's insert and events were.
 */
async function writeOrder(trx: Tx, plan: Plan, redemptions: Record<string, unknown>, at: string): Promise<void> {
  if (!plan.order) return;
  // A plan with an order always has its figures after the stack (compute); without them a pending order would be lost.
  if (!plan.final) throw new Error(`the plan of order ${plan.order.id} has no figures`);
  const storedCount = plan.order.items.length;
  const items = plan.final.items.slice(0, storedCount).flatMap((item, position) => {
    const stored = plan.order!.items[position]!;
    const added = item.quantity !== (stored.quantity ?? 1); // a UNIT discount's missing units, added to the line
    const changed =
      added ||
      item.discount_amount !== (stored.discount_amount ?? 0) ||
      item.discount_quantity !== (stored.discount_quantity ?? 0);
    const figures = { position, discount_amount: item.discount_amount, discount_quantity: item.discount_quantity };
    return changed ? [added ? { ...figures, quantity: item.quantity, amount: item.amount } : figures] : [];
  });
  const added = plan.final.items.slice(storedCount).map((item) => ({
    product_id: item.product_id,
    sku_id: item.sku_id,
    quantity: item.quantity,
    price: item.price,
    amount: item.amount,
    discount_amount: item.discount_amount,
    discount_quantity: item.discount_quantity,
  }));
  const change = {
    amount: plan.final.amount,
    discount_amount: plan.final.discount_amount,
    items_discount_amount: plan.final.items_discount_amount,
    items,
    added,
    redemptions,
    total_amount_before: plan.order.total_amount,
    at,
  };
  await recordOrderRedemption(trx, plan.order.id, change, plan.pendingOrder);
}

/**
 * `single`: one redeemable redeemed as the legacy endpoints do (POST /v1/vouchers/{code}/redemption,
 * /v1/promotions/tiers/{id}/redemption): its redemption alone, with no parent.
 */
export async function writeRedemption(
  deps: WriteDeps,
  trx: Tx,
  stages: Plan,
  ctx: RowContext,
  single = false,
): Promise<RedemptionWritten> {
  // The order is updated by this redemption: its snapshots show it as stored after it.
  const plan = stages.order ? { ...stages, order: { ...stages.order, updated_at: ctx.at } } : stages;
  const parentId = single && plan.applied.length === 1 ? null : timeOrderedId('r_', ctx.at);
  const childIds = plan.applied.map(() => timeOrderedId('r_', ctx.at));
  const redemptions = redemptionsMap(plan, parentId, childIds, ctx.at);
  await writeOrder(trx, plan, redemptions, ctx.at);
  const children: RedemptionRow[] = [];
  for (const [i, applied] of plan.applied.entries()) {
    const id = childIds[i] as string;
    const spent = await asRefusal(applied.loaded, () =>
      spend(deps, trx, applied, { child: id, orderId: plan.order?.id ?? null }, ctx, plan),
    );
    const order = plan.order && applied.order ? calculatedOrder(plan.order, applied.order, redemptions) : null;
    const figures = {
      order,
      giftAmount: spent.giftAmount,
      loyaltyPoints: spent.loyalty?.points ?? null,
      reward: spent.loyalty?.reward ?? null,
    };
    children.push(childRow(id, parentId, applied.loaded, figures, ctx));
  }
  const order = plan.order && plan.final ? calculatedOrder(plan.order, plan.final, redemptions) : null;
  const parent = parentId === null ? null : parentRow(parentId, children, order, ctx);
  await insertRedemptions(
    trx,
    [...(parent ? [parent] : []), ...children].map(({ seq: _seq, ...row }) => row),
  );
  const announced = children.map((row, i) => ({ row, loaded: plan.applied[i]!.loaded }));
  await announce(trx, announced, ctx, 'customer.redemption.succeeded');
  // Presented at most once, and only when asked: inside the transaction only if a subscriber
  // (a webhook) needs them; the request's answer shares them.
  let answers: RedemptionObject[] | undefined;
  const presented = () => (answers ??= children.map((row) => presentWrittenRedemption(row, snapshotOf(row))));
  await deps.seams.fire(REDEMPTIONS_SUCCEEDED, trx, {
    records: children,
    presented,
    customer: ctx.customer,
    actor: ctx.actor,
    at: ctx.at,
  });
  return {
    parent,
    children: presented,
    order: parent ? snapshotOf(parent) : snapshotOf(children[0]!),
  };
}

/** A refused request's failed redemption and its event (with the summary's failed count). */
export async function writeFailure(
  trx: Tx,
  row: RedemptionRow,
  loaded: LoadedRedeemable,
  ctx: RowContext,
): Promise<void> {
  const { seq: _seq, ...insert } = row;
  await insertRedemptions(trx, [insert]);
  await announce(trx, [{ row, loaded }], ctx, 'customer.redemption.failed');
}
