import type { Deps } from '../../../app/deps.js';
import {
  pointsEarned,
  targetsOf,
  type EarningInput,
  type EarningLoyalty,
  type ItemRatio,
  type TierMapping,
} from '../../../engine/loyalty/points.js';
import { isActiveAt, presentValidity } from '../../../engine/validity/index.js';
import { collectionMembersAmong } from '../../catalog/index.js';
import { findSimpleCustomer } from '../../customers/index.js';
import { creditPoints } from '../../ledgers/index.js';
import type { PaidOrder, OrderObject } from '../../orders/index.js';
import { expirationOf } from './earning-expiry.rules.js';
import { listActiveRulesForEvent, type EarningRuleRow } from './earning-rules.repository.js';
import { listHeldCards, type HeldCard } from './earning.repository.js';
import { addPendingPoints } from '../pending-points/pending-points.service.js';
import { findMemberTier } from '../tiers/tiers-members.service.js';
import type { Db, Tx } from '../../../db/engine.js';

/**
 * Earning on a paid order (issue 11 point 5), inside the order's transaction (the paid-order
 * seam): for the paying customer, in each program where the customer holds an active card,
 * every active order.paid rule valid at the time of payment earns its points on that card,
 * through the ledger (POINTS_ACCRUAL; the ledger writes the customer.rewarded.loyalty_points
 * and points_added events), or as pending points when the rule has a pending period.
 */
export type EarnDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

const ORDER_PAID_EVENT = 'order.paid';

/** The calculator's view of the order. */
const earningOrder = (order: OrderObject): NonNullable<EarningInput['order']> => ({
  amount: order.amount,
  total_amount: order.total_amount,
  metadata: order.metadata,
  items: order.items.map((item) => ({
    product_id: item.product_id ?? null,
    sku_id: item.sku_id ?? null,
    quantity: item.quantity ?? null,
    amount: item.amount ?? null,
    subtotal_amount: item.subtotal_amount ?? null,
  })),
});

/** The collections the rules target, each with those of the order's products and SKUs it holds. */
async function collectionsOf(deps: EarnDeps, trx: Db, loyalties: EarningLoyalty[], order: OrderObject) {
  const ratios = loyalties.flatMap((l) => Object.values(l.order_items ?? {}).filter((r): r is ItemRatio => !!r));
  const ids = [
    ...new Set(
      ratios
        .flatMap(targetsOf)
        .filter((t) => t.object === 'products_collection')
        .map((t) => t.id),
    ),
  ];
  const members = {
    productIds: [...new Set(order.items.flatMap((i) => (i.product_id ? [i.product_id] : [])))],
    skuIds: [...new Set(order.items.flatMap((i) => (i.sku_id ? [i.sku_id] : [])))],
  };
  const collections = new Map<string, Set<string>>();
  for (const id of ids) collections.set(id, await collectionMembersAmong({ db: trx, clock: deps.clock }, id, members));
  return collections;
}

/** What the calculator needs beyond the rule, read once for all the customer's cards. */
async function earningInput(
  deps: EarnDeps,
  trx: Tx,
  order: OrderObject,
  customerId: string,
  rules: EarningRuleRow[],
): Promise<EarningInput> {
  const loyalties = rules.map((rule) => JSON.parse(rule.loyalty) as EarningLoyalty);
  const needsCustomer = loyalties.some((l) => l.type === 'PROPORTIONAL' && l.calculation_type === 'CUSTOMER_METADATA');
  const customer = needsCustomer ? await findSimpleCustomer(trx, customerId) : undefined;
  return {
    order: earningOrder(order),
    customerMetadata: customer?.metadata ?? null,
    collections: await collectionsOf(deps, trx, loyalties, order),
  };
}

/**
 * The member's tier mapping for each rule (the reference's LoyaltyTier `earning_rules` of the tier the card
 * is in now), keyed by rule id; empty without a tier.
 */
export async function tierMappingsOf(trx: Tx, voucherId: string): Promise<Record<string, TierMapping>> {
  return ((await findMemberTier({}, trx, voucherId))?.earning_rules ?? {}) as Record<string, TierMapping>;
}

/** The custom event that fired a rule: its id and name, in the ledger row's details. */
export interface FiringCustomEvent {
  id: string;
  type: string;
}

/** A custom event's details (the reference's LoyaltyCardTransaction custom_event and event_schema). */
const customEventDetails = (rule: EarningRuleRow, event: FiringCustomEvent) => {
  const schemaId =
    rule.custom_event === null ? null : ((JSON.parse(rule.custom_event) as { schema_id?: string }).schema_id ?? null);
  return { custom_event: { id: event.id, type: event.type }, event_schema: { id: schemaId, name: event.type } };
};

/** Points a rule earned, onto the card through the ledger (POINTS_ACCRUAL, the rule's expiry). */
export async function creditRulePoints(
  deps: EarnDeps,
  trx: Tx,
  input: {
    voucherId: string;
    rule: EarningRuleRow;
    points: number;
    order?: { id: string; source_id: string | null };
    customEvent?: FiringCustomEvent;
    actor: PaidOrder['actor'];
    at: string;
  },
) {
  const { rule, order, customEvent } = input;
  await creditPoints(deps, trx, {
    voucherId: input.voucherId,
    amount: input.points,
    type: 'POINTS_ACCRUAL',
    expiration: expirationOf(rule, input.at),
    operationType: 'AUTOMATIC',
    related: { order_id: order?.id ?? null, earning_rule_id: rule.id },
    details: {
      ...(order ? { order: { id: order.id, source_id: order.source_id } } : {}),
      ...(customEvent ? customEventDetails(rule, customEvent) : {}),
      earning_rule: { id: rule.id, source: { banner: rule.banner } },
    },
    actor: input.actor,
    at: input.at,
  });
}

async function earnOnCard(
  deps: EarnDeps,
  trx: Tx,
  card: HeldCard,
  rules: EarningRuleRow[],
  input: EarningInput,
  paid: PaidOrder,
): Promise<void> {
  const mappings = await tierMappingsOf(trx, card.id);
  const order = { id: paid.order.id, source_id: paid.order.source_id };
  for (const rule of rules) {
    const points = pointsEarned(JSON.parse(rule.loyalty) as EarningLoyalty, {
      ...input,
      tier: mappings[rule.id] ?? null,
    });
    if (points <= 0) continue;
    if (rule.pending_days === null) {
      await creditRulePoints(deps, trx, { voucherId: card.id, rule, points, order, actor: paid.actor, at: paid.at });
      continue;
    }
    const pendingRule = { id: rule.id, banner: rule.banner, pending_days: rule.pending_days };
    await addPendingPoints(trx, {
      card,
      rule: pendingRule,
      order,
      points,
      expirationRules: rule.expiration_rules,
      actor: paid.actor,
      at: paid.at,
    });
  }
}

/** The paid-order seam's subscriber: every card of the paying customer, every rule due. */
export async function earnOnPaidOrder(deps: EarnDeps, trx: Tx, paid: PaidOrder): Promise<void> {
  const customerId = paid.order.customer_id;
  if (customerId === null) return;
  const cards = await listHeldCards(trx, customerId);
  if (cards.length === 0) return;
  const campaignIds = [...new Set(cards.map((card) => card.campaign_id))];
  const rules = (await listActiveRulesForEvent(trx, campaignIds, ORDER_PAID_EVENT)).filter((rule) =>
    isActiveAt(presentValidity(rule), paid.at),
  );
  if (rules.length === 0) return;
  const input = await earningInput(deps, trx, paid.order, customerId, rules);
  for (const card of cards)
    await earnOnCard(
      deps,
      trx,
      card,
      rules.filter((r) => r.campaign_id === card.campaign_id),
      input,
      paid,
    );
}
