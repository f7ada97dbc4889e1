import { fieldCatalog, type FieldKind } from '../conditions/index.js';
import type { RuleCategory } from './types.js';

/**
 * The condition names a rule may use (docs/api.md "Validation rules"): those of the reference a
 * shop's checkout can be judged on from the customer, the order, its items and the
 * customer's earlier redemptions. Anything else is refused when the rule is saved.
 */
export interface FilterName {
  category: RuleCategory;
  kind: FieldKind;
  /** Metadata names take a `property` (the metadata key). */
  property: boolean;
  /** `order.items.price_each`: every item must pass. */
  eachItem: boolean;
}

const filterName = (category: RuleCategory, kind: FieldKind, property = false, eachItem = false): FilterName => ({
  category,
  kind,
  property,
  eachItem,
});

export const FILTER_NAMES: Record<string, FilterName> = {
  'customer.metadata': filterName('customer', 'any', true),
  // The ids of the segments the customer belongs to: `$is: [seg_id]` holds for a member.
  'customer.segment': filterName('customer', 'string_array'),
  'redemption.count.per_customer': filterName('customer', 'number'),
  'order.amount': filterName('order', 'number'),
  'order.metadata': filterName('order', 'any', true),
  'order.items.count': filterName('order', 'number'),
  'order.items.price_any': filterName('order', 'number'),
  'order.items.price_each': filterName('order', 'number', false, true),
};

/** Item conditions: the order holds every / any / none of the named products, SKUs or collections. */
export const ITEM_MODES = {
  'order.items.every': 'every',
  'order.items.any': 'any',
  'order.items.none': 'none',
} as const;

/** What the nested rules of an item condition may test on each matching item. */
export const ITEM_FIELD_NAMES: Record<string, FilterName> = {
  'order.items.quantity': filterName('order', 'number'),
  'order.items.price': filterName('order', 'number'),
  'order.items.amount': filterName('order', 'number'),
};

/**
 * Other spellings of a condition name, read as the name they stand for and answered as given:
 * the reference's audience rule "customer segment" reaches clients as `customer_segment`
 * beside the dotted `customer.segment` of its validation-rule examples.
 */
export const NAME_ALIASES: Record<string, string> = { customer_segment: 'customer.segment' };

export const SUPPORTED_NAMES = [...Object.keys(FILTER_NAMES), ...Object.keys(NAME_ALIASES), ...Object.keys(ITEM_MODES)];

/** The filter field of a name: metadata names add their property (`order.metadata.color`). */
export const fieldOf = (name: string, property: string | null): string =>
  property === null ? name : `${name}.${property}`;

const catalogOf = (names: Record<string, FilterName>) =>
  fieldCatalog(
    Object.fromEntries(
      Object.entries(names)
        .filter(([, n]) => !n.property)
        .map(([name, n]) => [name, n.kind]),
    ),
    Object.fromEntries(
      Object.entries(names)
        .filter(([, n]) => n.property)
        .map(([name, n]) => [`${name}.`, n.kind]),
    ),
  );

export const RULE_FIELDS = catalogOf(FILTER_NAMES);
export const ITEM_FIELDS = catalogOf(ITEM_FIELD_NAMES);

/**
 * The reference spells two comparisons its own way (`$more_than_or_equal`, and once
 * `$greater_than_or_equal`): they mean the condition engine's `$more_than_equal` and
 * `$less_than_equal`.
 */
export const OPERATOR_ALIASES: Record<string, string> = {
  $more_than_or_equal: '$more_than_equal',
  $greater_than_or_equal: '$more_than_equal',
  $less_than_or_equal: '$less_than_equal',
};
