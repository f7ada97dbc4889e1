/**
 * How many points an earning rule gives (issue 11 point 5; voucherify-facts 3): pure, no I/O.
 * The service resolves what the rule needs from the database (the order, the customer's
 * metadata, the members of the product collections the rule targets, the member's tier
 * mapping) and asks `pointsEarned`.
 *
 * Rounding: points are whole. A PROPORTIONAL rule gives `points` for every WHOLE `every` of
 * its value (floor(value / every) x points: 1 point for every 10.00 gives 2 points for
 * 29.99), as the reference words it ("for every set of value defined in every, give
 * points"); a partial step earns nothing. A tier's MULTIPLY mapping multiplies the result and
 * rounds down. A value that is missing, not a number, or below zero earns nothing.
 */
export const CALCULATION_TYPES = [
  'ORDER_AMOUNT',
  'ORDER_TOTAL_AMOUNT',
  'ORDER_METADATA',
  'ORDER_ITEMS_QUANTITY',
  'ORDER_ITEMS_AMOUNT',
  'ORDER_ITEMS_SUBTOTAL_AMOUNT',
  'CUSTOMER_METADATA',
  'CUSTOM_EVENT_METADATA',
] as const;
export type CalculationType = (typeof CALCULATION_TYPES)[number];

export const ITEM_TARGET_OBJECTS = ['products_collection', 'product', 'sku'] as const;
export type ItemTargetObject = (typeof ITEM_TARGET_OBJECTS)[number];

export interface Ratio {
  every?: number | null;
  points?: number | null;
}

export interface PropertyRatio extends Ratio {
  property?: string | null;
}

/** An earning rule's `applicable_to` entry (the discounts' ItemTarget is an item's index instead). */
export interface EarningTarget {
  object: ItemTargetObject;
  id: string;
}

export interface ItemRatio extends Ratio {
  object?: ItemTargetObject | null;
  id?: string | null;
  applicable_to?: EarningTarget[] | null;
}

/** The `loyalty` block of an earning rule, as stored and answered. */
export interface EarningLoyalty {
  type: 'FIXED' | 'PROPORTIONAL';
  points?: number | null;
  calculation_type?: CalculationType | null;
  order?: { amount?: Ratio | null; total_amount?: Ratio | null; metadata?: PropertyRatio | null } | null;
  order_items?: { quantity?: ItemRatio | null; amount?: ItemRatio | null; subtotal_amount?: ItemRatio | null } | null;
  customer?: { metadata?: PropertyRatio | null } | null;
  custom_event?: { metadata?: PropertyRatio | null } | null;
}

export interface EarningItem {
  product_id?: string | null;
  sku_id?: string | null;
  quantity?: number | null;
  amount?: number | null;
  subtotal_amount?: number | null;
}

export interface EarningOrder {
  amount: number;
  total_amount: number;
  metadata: Record<string, unknown>;
  items: EarningItem[];
}

/** A tier's mapping for one earning rule (the reference's LoyaltyTier `earning_rules`). */
export type TierMapping = { type: 'MULTIPLY'; multiplier: number } | { type: 'CUSTOM'; points: number };

export interface EarningInput {
  order?: EarningOrder | null;
  customerMetadata?: Record<string, unknown> | null;
  /** The metadata of the custom event that fires the rule (CUSTOM_EVENT_METADATA). */
  customEventMetadata?: Record<string, unknown> | null;
  /** Product and SKU ids in each collection the rule targets (only those the order holds are needed). */
  collections?: ReadonlyMap<string, ReadonlySet<string>>;
  tier?: TierMapping | null;
}

/** Which item ratio a calculation type reads, and which figure of an item it sums. */
const ITEM_FIGURES = {
  ORDER_ITEMS_QUANTITY: ['quantity', 'quantity'],
  ORDER_ITEMS_AMOUNT: ['amount', 'amount'],
  ORDER_ITEMS_SUBTOTAL_AMOUNT: ['subtotal_amount', 'subtotal_amount'],
} as const;

const wholeSteps = (value: unknown, ratio: Ratio | null | undefined, points: number | null | undefined): number => {
  const every = ratio?.every;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || !every || every <= 0) return 0;
  return Math.floor(value / every) * (points ?? 0);
};

/** The targets of an item ratio: `applicable_to`, else its `object` and `id`, else none (every item). */
export function targetsOf(ratio: ItemRatio): EarningTarget[] {
  if (ratio.applicable_to && ratio.applicable_to.length > 0) return ratio.applicable_to;
  return ratio.object && ratio.id ? [{ object: ratio.object, id: ratio.id }] : [];
}

function itemMatches(item: EarningItem, target: EarningTarget, collections: EarningInput['collections']): boolean {
  if (target.object === 'product') return item.product_id === target.id;
  if (target.object === 'sku') return item.sku_id === target.id;
  const members = collections?.get(target.id);
  return (
    !!members && ((!!item.sku_id && members.has(item.sku_id)) || (!!item.product_id && members.has(item.product_id)))
  );
}

function itemsTotal(type: keyof typeof ITEM_FIGURES, ratio: ItemRatio, input: EarningInput): number {
  const field = ITEM_FIGURES[type][1];
  const targets = targetsOf(ratio);
  const items = (input.order?.items ?? []).filter(
    (item) => targets.length === 0 || targets.some((t) => itemMatches(item, t, input.collections)),
  );
  return items.reduce((sum, item) => sum + Math.max(0, item[field] ?? 0), 0);
}

/** The value a PROPORTIONAL rule measures, and the ratio it applies. */
function measure(loyalty: EarningLoyalty, input: EarningInput): { value: unknown; ratio: Ratio | null | undefined } {
  const order = input.order;
  switch (loyalty.calculation_type) {
    case 'ORDER_AMOUNT':
      return { value: order?.amount, ratio: loyalty.order?.amount };
    case 'ORDER_TOTAL_AMOUNT':
      return { value: order?.total_amount, ratio: loyalty.order?.total_amount };
    case 'ORDER_METADATA': {
      const ratio = loyalty.order?.metadata;
      return { value: ratio?.property ? order?.metadata[ratio.property] : undefined, ratio };
    }
    case 'CUSTOMER_METADATA': {
      const ratio = loyalty.customer?.metadata;
      return { value: ratio?.property ? input.customerMetadata?.[ratio.property] : undefined, ratio };
    }
    case 'ORDER_ITEMS_QUANTITY':
    case 'ORDER_ITEMS_AMOUNT':
    case 'ORDER_ITEMS_SUBTOTAL_AMOUNT': {
      const ratio = loyalty.order_items?.[ITEM_FIGURES[loyalty.calculation_type][0]];
      return { value: ratio ? itemsTotal(loyalty.calculation_type, ratio, input) : undefined, ratio };
    }
    case 'CUSTOM_EVENT_METADATA': {
      const ratio = loyalty.custom_event?.metadata;
      return { value: ratio?.property ? input.customEventMetadata?.[ratio.property] : undefined, ratio };
    }
    default:
      return { value: undefined, ratio: undefined };
  }
}

/**
 * The points an earning rule gives for this order (and customer), with the member's tier
 * mapping: CUSTOM replaces the rule's points (a FIXED rule's points, a PROPORTIONAL rule's
 * points per step), MULTIPLY multiplies what the rule gives and rounds down.
 */
export function pointsEarned(loyalty: EarningLoyalty, input: EarningInput): number {
  const custom = input.tier?.type === 'CUSTOM' ? input.tier.points : undefined;
  let points: number;
  if (loyalty.type === 'FIXED') points = custom ?? loyalty.points ?? 0;
  else {
    const { value, ratio } = measure(loyalty, input);
    points = wholeSteps(value, ratio, custom ?? ratio?.points);
  }
  // toFixed first: 100 x 1.15 is 114.99999999999999 in binary floating point, and 115 is meant.
  if (input.tier?.type === 'MULTIPLY') points = Math.floor(Number((points * input.tier.multiplier).toFixed(6)));
  return Math.max(0, points);
}
