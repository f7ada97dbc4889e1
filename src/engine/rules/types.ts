import type { Filter } from '../conditions/index.js';

/**
 * A validation rule as the evaluator takes it: parsed and checked once (parse.ts), then
 * evaluated against plain data. No I/O: the caller loads the rule, the customer, the order and
 * each item's collections.
 */

/** Which failure a condition's name stands for: the customer's or the order's. */
export type RuleCategory = 'customer' | 'order';

export type TargetObject = 'product' | 'sku' | 'products_collection';

/** A product, SKU or product collection that an item condition or applicable_to names. */
export interface Target {
  object: TargetObject;
  id: string;
}

/** A boolean expression over condition numbers ("1 and (2 or 3)"). */
export type Logic = { op: 'ref'; key: string } | { op: 'and' | 'or'; parts: Logic[] } | { op: 'true' };

/** One numbered condition. */
export type RuleCondition =
  | {
      kind: 'filter';
      category: RuleCategory;
      /** The name as given (`order.amount`); the filter's field adds the property (`order.metadata.color`). */
      name: string;
      filter: Filter;
      /** `order.items.price_each`: every item must pass, not just one. */
      eachItem: boolean;
      message: string | null;
    }
  | {
      kind: 'items';
      category: 'order';
      name: string;
      mode: 'every' | 'any' | 'none';
      targets: Target[];
      /** Conditions on the matching items (quantity, price, amount); null when there are none. */
      itemRules: RuleTree | null;
      message: string | null;
    };

export interface RuleTree {
  conditions: Map<string, RuleCondition>;
  logic: Logic;
}

export const APPLICABLE_EFFECTS = [
  'APPLY_TO_EVERY',
  'APPLY_TO_CHEAPEST',
  'APPLY_FROM_CHEAPEST',
  'APPLY_TO_MOST_EXPENSIVE',
  'APPLY_FROM_MOST_EXPENSIVE',
] as const;
export type ApplicableEffect = (typeof APPLICABLE_EFFECTS)[number];

export interface ApplicableEntry extends Target {
  effect: ApplicableEffect;
  quantity_limit: number | null;
  aggregated_quantity_limit: number | null;
}

export interface Applicability {
  included_all: boolean;
  included: ApplicableEntry[];
  excluded: ApplicableEntry[];
}

export interface RuleSpec {
  id: string;
  tree: RuleTree;
  /** The rule's `error.message`: replaces every failure message of the rule. */
  message: string | null;
  applicable: Applicability;
}

/** An order item as rules see it: what it is, which collections hold it, how much of it. */
export interface RuleItem {
  product_id: string | null;
  sku_id: string | null;
  collection_ids: readonly string[];
  quantity: number;
  price: number | null;
  amount: number | null;
}

export interface RuleContext {
  /** `segments`: the ids of the customer's segments, given when a rule reads `customer.segment`. */
  customer: { metadata: Record<string, unknown>; segments?: readonly string[] } | null;
  order: { amount: number; metadata: Record<string, unknown>; items: RuleItem[] } | null;
  /** The customer's earlier successful redemptions of the rule's object. */
  customerRedemptions: number;
}
