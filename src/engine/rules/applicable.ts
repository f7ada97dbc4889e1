import type { ItemTarget } from '../discounts/types.js';
import {
  APPLICABLE_EFFECTS,
  type ApplicableEffect,
  type ApplicableEntry,
  type Applicability,
  type RuleItem,
  type Target,
} from './types.js';

export const MAX_APPLICABLE = 100;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isLimit = (value: unknown): value is number | null | undefined =>
  value == null || (Number.isSafeInteger(value) && (value as number) >= 1);
const TARGET_OBJECTS = ['product', 'sku', 'products_collection'];

function entryOf(value: unknown, at: string, errors: string[]): ApplicableEntry | undefined {
  if (
    !isPlainObject(value) ||
    typeof value.id !== 'string' ||
    value.id === '' ||
    !TARGET_OBJECTS.includes(value.object as string)
  ) {
    errors.push(`${at} must be {"object": "product" | "sku" | "products_collection", "id": <non-empty id>, ...}`);
    return undefined;
  }
  const effect = value.effect ?? 'APPLY_TO_EVERY';
  if (!APPLICABLE_EFFECTS.includes(effect as ApplicableEffect))
    errors.push(`${at}.effect must be one of: ${APPLICABLE_EFFECTS.join(', ')}`);
  for (const limit of ['quantity_limit', 'aggregated_quantity_limit'] as const) {
    if (!isLimit(value[limit])) errors.push(`${at}.${limit} must be a whole number of at least 1, or null`);
  }
  return {
    object: value.object as Target['object'],
    id: value.id,
    effect: effect as ApplicableEffect,
    quantity_limit: (value.quantity_limit as number | null | undefined) ?? null,
    aggregated_quantity_limit: (value.aggregated_quantity_limit as number | null | undefined) ?? null,
  };
}

function entriesOf(value: unknown, at: string, errors: string[]): ApplicableEntry[] {
  if (value == null) return [];
  if (!Array.isArray(value) || value.length > MAX_APPLICABLE) {
    errors.push(`${at} must be an array of at most ${MAX_APPLICABLE} products, SKUs or product collections`);
    return [];
  }
  return value.flatMap((entry, i) => entryOf(entry, `${at}.${i}`, errors) ?? []);
}

/** Checks `applicable_to` ({excluded, included, included_all}); absent or null restricts nothing. */
export function parseApplicable(value: unknown, errors: string[]): Applicability {
  if (value == null) return { included_all: false, included: [], excluded: [] };
  if (!isPlainObject(value)) {
    errors.push('applicable_to must be an object {"excluded": [...], "included": [...], "included_all": <boolean>}');
    return { included_all: false, included: [], excluded: [] };
  }
  if (value.included_all != null && typeof value.included_all !== 'boolean')
    errors.push('applicable_to.included_all must be a boolean');
  return {
    included_all: value.included_all === true,
    included: entriesOf(value.included, 'applicable_to.included', errors),
    excluded: entriesOf(value.excluded, 'applicable_to.excluded', errors),
  };
}

/** Whether an order item is the product or SKU a target names, or in the collection it names. */
export function itemMatches(item: RuleItem, target: Target): boolean {
  if (target.object === 'product') return item.product_id === target.id;
  if (target.object === 'sku') return item.sku_id === target.id;
  return item.collection_ids.includes(target.id);
}

/** The indices of the items a target matches. */
export const matchingIndices = (items: readonly RuleItem[], target: Target): number[] =>
  items.flatMap((item, index) => (itemMatches(item, target) ? [index] : []));

const unitPrice = (item: RuleItem): number =>
  item.price ?? (item.amount !== null && item.quantity > 0 ? item.amount / item.quantity : 0);

/** Units of each item in turn until `limit` units are taken (null: no aggregate limit). */
function takeUnits(
  items: readonly RuleItem[],
  indices: number[],
  perItem: number | null,
  limit: number | null,
): ItemTarget[] {
  let left = limit ?? Infinity;
  const out: ItemTarget[] = [];
  for (const index of indices) {
    if (left <= 0) break;
    const quantity = Math.min((items[index] as RuleItem).quantity, perItem ?? Infinity);
    const take = Math.min(quantity, left);
    out.push({ index, quantity_limit: limit === null ? perItem : take });
    left -= take;
  }
  return out;
}

/** The items one `included` entry lets the discount touch, by its effect. */
function entryTargets(items: readonly RuleItem[], entry: ApplicableEntry, indices: number[]): ItemTarget[] {
  const byPrice = [...indices].sort(
    (a, b) => unitPrice(items[a] as RuleItem) - unitPrice(items[b] as RuleItem) || a - b,
  );
  switch (entry.effect) {
    case 'APPLY_TO_EVERY':
      return takeUnits(items, indices, entry.quantity_limit, entry.aggregated_quantity_limit);
    case 'APPLY_TO_CHEAPEST':
    case 'APPLY_TO_MOST_EXPENSIVE': {
      const pick =
        entry.effect === 'APPLY_TO_CHEAPEST'
          ? byPrice[0]
          : [...byPrice].sort((a, b) => unitPrice(items[b] as RuleItem) - unitPrice(items[a] as RuleItem) || a - b)[0];
      return pick === undefined ? [] : [{ index: pick, quantity_limit: entry.quantity_limit ?? 1 }];
    }
    default: {
      const order =
        entry.effect === 'APPLY_FROM_CHEAPEST'
          ? byPrice
          : [...byPrice].sort((a, b) => unitPrice(items[b] as RuleItem) - unitPrice(items[a] as RuleItem) || a - b);
      return takeUnits(items, order, null, entry.aggregated_quantity_limit ?? entry.quantity_limit);
    }
  }
}

/** Two limits on one item: the larger wins (null is no limit), since either entry allows it. */
const widerLimit = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a == null || b == null ? null : Math.max(a, b);

/**
 * Which items a discount under this rule may touch: null when `applicable_to` restricts
 * nothing (every item), else the items `included` names (or all, with `included_all` or no
 * `included`), less those `excluded` names, each with the units its entry allows.
 */
export function applicableItems(applicable: Applicability, items: readonly RuleItem[]): ItemTarget[] | null {
  const restricts = (!applicable.included_all && applicable.included.length > 0) || applicable.excluded.length > 0;
  if (!restricts) return null;
  const excluded = new Set(applicable.excluded.flatMap((entry) => matchingIndices(items, entry)));
  if (applicable.included_all || applicable.included.length === 0) {
    return items.flatMap((_, index) => (excluded.has(index) ? [] : [{ index, quantity_limit: null }]));
  }
  const chosen = new Map<number, number | null>();
  for (const entry of applicable.included) {
    const indices = matchingIndices(items, entry).filter((index) => !excluded.has(index));
    for (const target of entryTargets(items, entry, indices)) {
      chosen.set(
        target.index,
        chosen.has(target.index)
          ? widerLimit(chosen.get(target.index), target.quantity_limit)
          : (target.quantity_limit ?? null),
      );
    }
  }
  return [...chosen].sort((a, b) => a[0] - b[0]).map(([index, quantity_limit]) => ({ index, quantity_limit }));
}

/** Items that every rule allows, each with the tightest limit; null (every item) leaves the other. */
export function intersectItems(a: ItemTarget[] | null, b: ItemTarget[] | null): ItemTarget[] | null {
  if (a === null) return b;
  if (b === null) return a;
  const limits = new Map(b.map((t) => [t.index, t.quantity_limit ?? null]));
  return a.flatMap((t) => {
    if (!limits.has(t.index)) return [];
    const other = limits.get(t.index) ?? null;
    const mine = t.quantity_limit ?? null;
    return [{ index: t.index, quantity_limit: mine === null ? other : other === null ? mine : Math.min(mine, other) }];
  });
}
