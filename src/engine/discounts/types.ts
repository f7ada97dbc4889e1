/**
 * The discount engine's plain data (issue 12, point 1; voucherify-facts 1.17, 2.7, 2.11). The
 * caller loads everything (discounts, gift balances, the prices of units a discount adds) and
 * decides which items each redeemable may touch; the engine only computes. Amounts are
 * integers in minor units.
 */

export const AMOUNT_EFFECTS = [
  'APPLY_TO_ORDER',
  'APPLY_TO_ITEMS',
  'APPLY_TO_ITEMS_PROPORTIONALLY',
  'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY',
  'APPLY_TO_ITEMS_BY_QUANTITY',
] as const;
export type AmountEffect = (typeof AMOUNT_EFFECTS)[number];
export type OrderOrItems = 'APPLY_TO_ORDER' | 'APPLY_TO_ITEMS';
export type UnitEffect = 'ADD_MISSING_ITEMS' | 'ADD_NEW_ITEMS';

/** The unit_type of free shipping (voucherify-facts 2.7): an order item like any other. */
export const SHIPPING_UNIT_TYPE = 'prod_5h1pp1ng';

/** An order line as sent (or stored): what the order amounts of engine/orders/amounts.ts read. */
export interface OrderLine {
  product_id?: string | null;
  sku_id?: string | null;
  /** Units; 1 when not sent. */
  quantity?: number | null;
  price?: number | null;
  /** price x quantity when not sent; unknown (and never discounted) without either. */
  amount?: number | null;
  /** Item discounts of earlier requests (a stored order); this request's come on top. */
  discount_amount?: number | null;
  discount_quantity?: number | null;
}

export interface DiscountOrder {
  /** The items' sum when not sent. */
  amount?: number | null;
  /** Order-level discounts of earlier requests. */
  discount_amount?: number | null;
  items: OrderLine[];
}

export interface AmountDiscount {
  type: 'AMOUNT';
  amount_off: number;
  aggregated_amount_limit?: number | null;
  effect?: AmountEffect | null;
}

export interface PercentDiscount {
  type: 'PERCENT';
  percent_off: number;
  /** The most one application gives: the order's, or each item's for APPLY_TO_ITEMS. */
  amount_limit?: number | null;
  aggregated_amount_limit?: number | null;
  effect?: OrderOrItems | null;
}

export interface FixedDiscount {
  type: 'FIXED';
  /** The order's total, or each eligible unit's price, after the discount. */
  fixed_amount: number;
  aggregated_amount_limit?: number | null;
  effect?: OrderOrItems | null;
}

export interface Unit {
  unit_off?: number | null;
  unit_type: string;
  effect?: UnitEffect | null;
  sku?: { id: string } | null;
}

/** UNIT single (unit_off, unit_type, effect) or multiple (effect ADD_MANY_ITEMS, units). */
export interface UnitDiscount {
  type: 'UNIT';
  unit_off?: number | null;
  unit_type?: string | null;
  effect?: UnitEffect | 'ADD_MANY_ITEMS' | null;
  sku?: { id: string } | null;
  units?: Unit[] | null;
}

export type Discount = AmountDiscount | PercentDiscount | FixedDiscount | UnitDiscount;

/**
 * An item a redeemable may touch: its index in the order's items (added items continue the
 * numbering, in the order they were added) and, when a rule limits it, how many of its units.
 */
export interface ItemTarget {
  index: number;
  quantity_limit?: number | null;
}

export interface DiscountRedeemable {
  kind: 'discount';
  discount: Discount;
  /**
   * The items it may touch, decided by the caller (validation rules, applicable_to). Absent:
   * every item, added ones included. Unit discounts ignore it: they name their own product.
   */
  items?: ItemTarget[] | null;
  /**
   * The unit price of units a UNIT discount adds as a new line, by SKU id (when the unit names a
   * SKU) or by unit_type: the caller loads the product or SKU. A unit without one is free.
   */
  unit_prices?: Record<string, number> | null;
}

export interface GiftRedeemable {
  kind: 'gift';
  /** Credits the request offers; absent means as much as is left to pay. */
  credits?: number | null;
  /** The card's balance. */
  balance: number;
  effect?: OrderOrItems | null;
  items?: ItemTarget[] | null;
}

export type Redeemable = DiscountRedeemable | GiftRedeemable;

export interface StackOptions {
  /**
   * Stacking rules' redeemables_products_application_mode: with ONCE, item-level effects of
   * AMOUNT, PERCENT and FIXED discounts pass over items that already carry an item discount
   * (of this request or an earlier one); UNIT discounts and gift credits are not concerned.
   * STACK (the default) lets discounts pile up on an item.
   */
  products_application_mode?: 'STACK' | 'ONCE';
}

/** The reference's ApplicationDetails, for units a UNIT discount added (no source: nothing is replaced). */
export interface ApplicationDetail {
  target_index: number;
  target_applied_quantity: number;
  target_applied_quantity_amount: number;
  target_applied_discount_amount: number;
}

/** OrderCalculatedItem's figures; the caller adds ids, product and sku objects, metadata. */
export interface CalculatedItem {
  product_id: string | null;
  sku_id: string | null;
  quantity: number;
  initial_quantity: number;
  discount_quantity: number;
  applied_discount_quantity: number;
  applied_quantity: number;
  applied_quantity_amount: number;
  price: number | null;
  amount: number | null;
  initial_amount: number | null;
  discount_amount: number;
  applied_discount_amount: number;
  subtotal_amount: number | null;
  application_details: ApplicationDetail[];
}

/** OrderCalculated's figures (voucherify-facts 1.17, 2.11). */
export interface CalculatedOrder {
  amount: number;
  initial_amount: number;
  discount_amount: number;
  items_discount_amount: number;
  total_discount_amount: number;
  total_amount: number;
  applied_discount_amount: number;
  items_applied_discount_amount: number;
  total_applied_discount_amount: number;
  items: CalculatedItem[];
}

/** What one redeemable did to one item. */
export interface ItemContribution {
  index: number;
  discount_amount: number;
  discount_quantity: number;
  /** Units it added to the item, and their value at the item's price. */
  applied_quantity: number;
  applied_quantity_amount: number;
}

export interface RedeemableResult {
  kind: 'discount' | 'gift';
  /** All it took off: order-level plus items. */
  discount_amount: number;
  order_discount_amount: number;
  items_discount_amount: number;
  items: ItemContribution[];
  /** It changed nothing: the caller applies the stacking rules' no-effect rule. */
  no_effect: boolean;
  /** Gift credits spent (gift only; 0 for discounts). */
  credits_used: number;
  /** The order after it, as its child redemption shows it. */
  order: CalculatedOrder;
}

export type StackResult =
  | { ok: true; order: CalculatedOrder; redeemables: RedeemableResult[] }
  | { ok: false; problems: string[] };
