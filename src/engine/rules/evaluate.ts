import { compileFilter, evaluateFilter, type ValueGetter } from '../conditions/index.js';
import { itemMatches } from './applicable.js';
import { evaluateLogic } from './logic.js';
import type { RuleCategory, RuleCondition, RuleContext, RuleItem, RuleSpec, RuleTree } from './types.js';

/** The canonical failure messages (voucherify-facts 2.9; the reference's validation rules guide). */
export const RULE_MESSAGES = {
  customer: 'customer does not match validation rules',
  order: 'order does not match validation rules',
} as const;

export type RuleVerdict =
  | { ok: true }
  | { ok: false; code: 'customer_rules_violated' | 'order_rules_violated'; message: string };

const metadataValue = (metadata: Record<string, unknown> | undefined, key: string): unknown =>
  metadata && Object.hasOwn(metadata, key) ? metadata[key] : undefined;

/** The values top-level conditions read; an absent customer or order has none. */
function contextGetter(context: RuleContext): ValueGetter {
  const items = context.order?.items ?? [];
  return (field) => {
    if (field.startsWith('customer.metadata.'))
      return metadataValue(context.customer?.metadata, field.slice('customer.metadata.'.length));
    if (field.startsWith('order.metadata.'))
      return metadataValue(context.order?.metadata, field.slice('order.metadata.'.length));
    switch (field) {
      case 'customer.segment':
        return context.customer?.segments ?? [];
      case 'redemption.count.per_customer':
        return context.customerRedemptions;
      case 'order.amount':
        return context.order?.amount;
      case 'order.items.count':
        return context.order ? items.length : undefined;
      case 'order.items.price_any':
        // An array: the condition holds when any item's price passes (conditions' item semantics).
        return items.map((item) => item.price);
      default:
        return undefined;
    }
  };
}

const itemGetter =
  (item: RuleItem): ValueGetter =>
  (field) =>
    field === 'order.items.quantity'
      ? item.quantity
      : field === 'order.items.price'
        ? item.price
        : field === 'order.items.amount'
          ? item.amount
          : undefined;

function holds(condition: RuleCondition, context: RuleContext, now: Date): boolean {
  const items = context.order?.items ?? [];
  if (condition.kind === 'filter') {
    const compiled = compileFilter(condition.filter, now);
    if (!condition.eachItem) return evaluateFilter(compiled, contextGetter(context));
    return (
      items.length > 0 &&
      items.every((item) =>
        evaluateFilter(compiled, (field) => (field === 'order.items.price_each' ? item.price : undefined)),
      )
    );
  }
  const satisfied = (target: (typeof condition.targets)[number]) =>
    items.some(
      (item) =>
        itemMatches(item, target) &&
        (condition.itemRules === null ||
          treeHolds(
            condition.itemRules,
            { ...context, order: context.order && { ...context.order, items: [item] } },
            now,
            item,
          )),
    );
  if (condition.mode === 'every') return condition.targets.every(satisfied);
  if (condition.mode === 'any') return condition.targets.some(satisfied);
  return !condition.targets.some(satisfied);
}

/** Whether a tree's logic holds; item-level trees read one item's fields. */
function treeHolds(tree: RuleTree, context: RuleContext, now: Date, item?: RuleItem): boolean {
  const cache = new Map<string, boolean>();
  return evaluateLogic(tree.logic, (key) => {
    if (!cache.has(key)) cache.set(key, conditionHolds(tree, key, context, now, item));
    return cache.get(key) as boolean;
  });
}

function conditionHolds(tree: RuleTree, key: string, context: RuleContext, now: Date, item?: RuleItem): boolean {
  const condition = tree.conditions.get(key) as RuleCondition;
  if (item && condition.kind === 'filter')
    return evaluateFilter(compileFilter(condition.filter, now), itemGetter(item));
  return holds(condition, context, now);
}

/**
 * Judges one rule: pass, or the failure its first failing condition (in number order) names,
 * customer or order, with the message the rule (or that condition) sets, else the canonical one.
 */
export function evaluateRule(rule: RuleSpec, context: RuleContext, now: Date): RuleVerdict {
  if (treeHolds(rule.tree, context, now)) return { ok: true };
  const keys = [...rule.tree.conditions.keys()].sort((a, b) => Number(a) - Number(b));
  const failing = keys
    .map((key) => rule.tree.conditions.get(key) as RuleCondition)
    .find((c) => !holds(c, context, now));
  const category: RuleCategory = failing?.category ?? 'order';
  const message = rule.message ?? failing?.message ?? RULE_MESSAGES[category];
  return { ok: false, code: category === 'customer' ? 'customer_rules_violated' : 'order_rules_violated', message };
}
