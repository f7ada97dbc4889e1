import type { Kysely } from 'kysely';
import { queryTemplate } from '../../db/query-template.js';
import type { Db } from '../../db/engine.js';

/**
 * The summary and loyalty blocks are cached sums. Each change is ONE guarded UPDATE (or
 * upsert) that returns the row it changed; no row back means the customer is missing or the
 * guard refused (a sum would go below zero). Never read, compute and write back.
 */

export interface OrderCount {
  customerId: string;
  amount: number;
  orderDate: string;
  /** The customer's new updated_at; null keeps it (an import's history: docs/deviations.md). */
  at: string | null;
}

/** updated_at = at, unless at is null (the change keeps it: SQLite then skips its indexes). */
const touched = (at: string | null): { updated_at?: string } => (at === null ? {} : { updated_at: at });

const credit = queryTemplate<
  { customer_id: string; amount: number; order_date: string; at: string | null },
  { orders_total_amount: number; orders_total_count: number }
>((db, param, shape) =>
  db
    .updateTable('customers')
    .set((eb) => {
      const isLatest = eb.or([
        eb('orders_last_order_date', 'is', null),
        eb('orders_last_order_date', '<=', param('order_date')),
      ]);
      return {
        orders_total_amount: eb('orders_total_amount', '+', param('amount')),
        orders_total_count: eb('orders_total_count', '+', 1),
        orders_last_order_amount: eb
          .case()
          .when(isLatest)
          .then(eb.val(param('amount')))
          .else(eb.ref('orders_last_order_amount'))
          .end(),
        orders_last_order_date: eb
          .case()
          .when(isLatest)
          .then(param('order_date'))
          .else(eb.ref('orders_last_order_date'))
          .end(),
        ...(shape === 'keep' ? {} : { updated_at: param('at') as string }),
      };
    })
    .where('id', '=', param('customer_id'))
    .returning(['orders_total_amount', 'orders_total_count']),
);

/**
 * An order that counts (PAID, FULFILLED) joins the totals; the latest one is "last". Every
 * order of an import runs it, so it is a query template (db/sqlite/query-template.ts). The amount in
 * CASE is bound with eb.val: Kysely writes a bare number in `then` into the SQL text (which
 * made one statement per amount and churned the connection's statement cache).
 */
export const creditOrder = async (db: Db, o: OrderCount) =>
  (
    await credit(
      db,
      { customer_id: o.customerId, amount: o.amount, order_date: o.orderDate, at: o.at },
      o.at === null ? 'keep' : 'touch',
    )
  )[0];

/** An order that stops counting (canceled, amount corrected) leaves the totals. */
export const debitOrder = (db: Db, o: Omit<OrderCount, 'orderDate'>) =>
  db
    .updateTable('customers')
    .set((eb) => ({
      orders_total_amount: eb('orders_total_amount', '-', o.amount),
      orders_total_count: eb('orders_total_count', '-', 1),
      ...touched(o.at),
    }))
    .where('id', '=', o.customerId)
    .where('orders_total_count', '>=', 1)
    .where('orders_total_amount', '>=', o.amount)
    .returning(['orders_total_amount', 'orders_total_count'])
    .executeTakeFirst();

/** last_order_* set to the given order (or cleared), after an order left the totals. */
export const setLastOrder = (
  db: Db,
  customerId: string,
  last: { amount: number; date: string } | null,
  at: string | null,
) =>
  db
    .updateTable('customers')
    .set({ orders_last_order_amount: last?.amount ?? 0, orders_last_order_date: last?.date ?? null, ...touched(at) })
    .where('id', '=', customerId)
    .returning(['id'])
    .executeTakeFirst();

export interface RedemptionCount {
  customerId: string;
  succeeded: boolean;
  /** How many redemptions (a stack's children count in one statement); 1 unless given. */
  count?: number;
  giftAmount: number;
  loyaltyPoints: number;
  at: string;
}

type RedemptionTotals = {
  redemptions_total_redeemed: number;
  gift_redeemed_amount: number;
  loyalty_card_redeemed_points: number;
};

// Every redemption with a customer: compiled once per outcome (docs/performance.md "Hot paths").
const creditRedemptions = queryTemplate<
  { id: string; count: number; gift: number; points: number; at: string },
  RedemptionTotals
>((db, param, outcome) =>
  db
    .updateTable('customers')
    .set((eb) => ({
      redemptions_total_redeemed: eb('redemptions_total_redeemed', '+', param('count')),
      ...(outcome === 'succeeded'
        ? {
            redemptions_total_succeeded: eb('redemptions_total_succeeded', '+', param('count')),
            gift_redeemed_amount: eb('gift_redeemed_amount', '+', param('gift')),
            loyalty_card_redeemed_points: eb('loyalty_card_redeemed_points', '+', param('points')),
          }
        : { redemptions_total_failed: eb('redemptions_total_failed', '+', param('count')) }),
      updated_at: param('at'),
    }))
    .where('id', '=', param('id'))
    .returning(['redemptions_total_redeemed', 'gift_redeemed_amount', 'loyalty_card_redeemed_points']),
);

export const creditRedemption = async (db: Db, r: RedemptionCount): Promise<RedemptionTotals | undefined> => {
  const params = { id: r.customerId, count: r.count ?? 1, gift: r.giftAmount, points: r.loyaltyPoints, at: r.at };
  return (await creditRedemptions(db, params, r.succeeded ? 'succeeded' : 'failed'))[0];
};

/** A rollback: a successful one gives back what the redemption counted. */
export const creditRollback = (db: Db, r: RedemptionCount) => {
  let query = db
    .updateTable('customers')
    .set((eb) =>
      r.succeeded
        ? {
            redemptions_total_rolled_back: eb('redemptions_total_rolled_back', '+', 1),
            redemptions_total_rollback_succeeded: eb('redemptions_total_rollback_succeeded', '+', 1),
            gift_redeemed_amount: eb('gift_redeemed_amount', '-', r.giftAmount),
            loyalty_card_redeemed_points: eb('loyalty_card_redeemed_points', '-', r.loyaltyPoints),
            updated_at: r.at,
          }
        : { redemptions_total_rollback_failed: eb('redemptions_total_rollback_failed', '+', 1), updated_at: r.at },
    )
    .where('id', '=', r.customerId);
  if (r.succeeded) {
    query = query
      .where('gift_redeemed_amount', '>=', r.giftAmount)
      .where('loyalty_card_redeemed_points', '>=', r.loyaltyPoints);
  }
  return query
    .returning(['redemptions_total_rolled_back', 'gift_redeemed_amount', 'loyalty_card_redeemed_points'])
    .executeTakeFirst();
};

/** summary.redemptions.gift.amount_to_go moves with the customer's gift card balances. */
export const shiftGiftBalance = (db: Db, customerId: string, delta: number, at: string) =>
  db
    .updateTable('customers')
    .set((eb) => ({ gift_amount_to_go: eb('gift_amount_to_go', '+', delta), updated_at: at }))
    .where('id', '=', customerId)
    .where((eb) => eb(eb('gift_amount_to_go', '+', delta), '>=', 0))
    .returning(['gift_amount_to_go'])
    .executeTakeFirst();

/** loyalty.points and summary.redemptions.loyalty_card.points_to_go move together. */
// Every ledger change of a held card (a balance change, each card of an expiry batch) moves
// these: query templates, built once by Kysely rather than once per change.
const shiftLoyalty = queryTemplate<{ customer_id: string; delta: number; at: string }, { loyalty_points: number }>(
  (db, param) =>
    db
      .updateTable('customers')
      .set((eb) => ({
        loyalty_points: eb('loyalty_points', '+', param('delta')),
        loyalty_card_points_to_go: eb('loyalty_card_points_to_go', '+', param('delta')),
        updated_at: param('at'),
      }))
      .where('id', '=', param('customer_id'))
      .where((eb) => eb(eb('loyalty_points', '+', param('delta')), '>=', 0))
      .where((eb) => eb(eb('loyalty_card_points_to_go', '+', param('delta')), '>=', 0))
      .returning(['loyalty_points']),
);

export const shiftLoyaltyPoints = async (db: Db, customerId: string, delta: number, at: string) =>
  (await shiftLoyalty(db, { customer_id: customerId, delta, at }))[0];

export const incrementReferredCustomers = (db: Db, customerId: string, at: string) =>
  db
    .updateTable('customers')
    .set((eb) => ({ loyalty_referred_customers: eb('loyalty_referred_customers', '+', 1), updated_at: at }))
    .where('id', '=', customerId)
    .returning(['loyalty_referred_customers'])
    .executeTakeFirst();

export interface CampaignRef {
  id: string;
  name: string;
}

type CampaignLine = { customer_id: string; campaign_id: string; campaign_name: string; points: number };
type LineAnswer = { points: number; referred_customers: number };

const addLine = queryTemplate<CampaignLine & { referred: number }, LineAnswer>((db, param) =>
  db
    .insertInto('customer_loyalty_campaigns')
    .values({
      customer_id: param('customer_id'),
      campaign_id: param('campaign_id'),
      campaign_name: param('campaign_name'),
      points: param('points'),
      referred_customers: param('referred'),
    })
    .onConflict((oc) =>
      oc.columns(['customer_id', 'campaign_id']).doUpdateSet((eb) => ({
        campaign_name: eb.ref('excluded.campaign_name'),
        points: eb('customer_loyalty_campaigns.points', '+', eb.ref('excluded.points')),
        referred_customers: eb(
          'customer_loyalty_campaigns.referred_customers',
          '+',
          eb.ref('excluded.referred_customers'),
        ),
      })),
    )
    .returning(['points', 'referred_customers']),
);

/**
 * A campaign's line in loyalty.campaigns: points added (delta >= 0) or referred customers
 * counted, created on first use. The name is refreshed on every change.
 */
export const addToCampaign = async (
  db: Db,
  customerId: string,
  campaign: CampaignRef,
  points: number,
  referred: number,
) =>
  (
    await addLine(db, {
      customer_id: customerId,
      campaign_id: campaign.id,
      campaign_name: campaign.name,
      points,
      referred,
    })
  )[0];

const takeLine = queryTemplate<CampaignLine, LineAnswer>((db, param) =>
  db
    .updateTable('customer_loyalty_campaigns')
    .set((eb) => ({ points: eb('points', '-', param('points')), campaign_name: param('campaign_name') }))
    .where('customer_id', '=', param('customer_id'))
    .where('campaign_id', '=', param('campaign_id'))
    .where('points', '>=', param('points'))
    .returning(['points', 'referred_customers']),
);

/** Points taken from a campaign's line (delta < 0): guarded, never below zero. */
export const takeFromCampaign = async (db: Db, customerId: string, campaign: CampaignRef, points: number) =>
  (await takeLine(db, { customer_id: customerId, campaign_id: campaign.id, campaign_name: campaign.name, points }))[0];

export const setCampaignTier = (db: Db, customerId: string, campaign: CampaignRef, tierId: string | null) =>
  db
    .insertInto('customer_loyalty_campaigns')
    .values({ customer_id: customerId, campaign_id: campaign.id, campaign_name: campaign.name, loyalty_tier: tierId })
    .onConflict((oc) =>
      oc.columns(['customer_id', 'campaign_id']).doUpdateSet({ campaign_name: campaign.name, loyalty_tier: tierId }),
    )
    .execute();

export interface ReferralInsert {
  customer_id: string;
  campaign_id: string;
  referrer_id: string;
  related_object_id: string;
  related_object_type: string;
  date: string;
}

export const insertReferral = async (db: Db, row: ReferralInsert): Promise<void> => {
  await db.insertInto('customer_referrals').values(row).execute();
};

export const touchCustomer = (db: Db, customerId: string, at: string) =>
  db.updateTable('customers').set({ updated_at: at }).where('id', '=', customerId).returning(['id']).executeTakeFirst();

export const customerExists = async (db: Db, customerId: string): Promise<boolean> =>
  (await db.selectFrom('customers').select('id').where('id', '=', customerId).executeTakeFirst()) !== undefined;
