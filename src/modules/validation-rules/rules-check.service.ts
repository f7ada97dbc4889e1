import type { ItemTarget } from '../../engine/discounts/types.js';
import {
  applicableItems,
  evaluateRule,
  intersectItems,
  matchingIndices,
  parseApplicable,
  parseRules,
  type ApplicableEntry,
  type RuleCondition,
  type RuleItem,
  type RuleSpec,
  type RuleTree,
} from '../../engine/rules/index.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { collectionsMembersAmong } from '../catalog/index.js';
import { customerSegmentIds } from '../segments/index.js';
import * as repo from './validation-rules.repository.js';
import type { RuleObjectType } from '../../lib/enums.js';
import type { Db } from '../../db/engine.js';

export type RuleSubject = { object: RuleObjectType; id: string };

export interface RulesInput {
  /** e.g. the voucher and its campaign: every rule assigned to any of them applies. */
  subjects: RuleSubject[];
  customer: { id: string | null; source_id: string | null; metadata: Record<string, unknown> } | null;
  order: {
    amount: number;
    metadata: Record<string, unknown>;
    items: {
      product_id: string | null;
      sku_id: string | null;
      quantity: number;
      price: number | null;
      amount: number | null;
    }[];
  } | null;
  /**
   * This customer's successful redemptions of the subject, from the caller: asked only when a
   * rule reads `redemption.count.per_customer`, so other checkouts pay nothing for it.
   */
  customerRedemptions?: () => Promise<number>;
  /**
   * The subjects' assignments, when the caller read them already for several checks at once
   * (`readRuleAssignments` of every subject of a request: one query instead of one per check).
   */
  assignments?: RuleAssignments;
}

/** Assignments of any set of subjects, in assignment order (checkValidationRules keeps its subjects' own). */
export type RuleAssignments = readonly repo.RuleAssignmentRow[];

/** The assignments of these subjects' ids, for several checks of one request. */
export const readRuleAssignments = (db: Db, subjects: RuleSubject[]): Promise<RuleAssignments> =>
  repo.listAssignmentsOfObjects(db, [...new Set(subjects.map((s) => s.id))]);

/** The reference's ApplicableToResultList: the entries and the order items each one matched. */
export interface ApplicableList {
  data: Array<ReturnType<typeof entryResult>>;
  total: number;
  data_ref: 'data';
  object: 'list';
}

export type RulesOutcome =
  | { ok: true; items: ItemTarget[] | null; applicable_to: ApplicableList; inapplicable_to: ApplicableList }
  | { ok: false; code: 'customer_rules_violated' | 'order_rules_violated'; message: string; rule_id: string };

/** A stored rule as the engine takes it (it was checked when saved). */
function parseSpec(row: repo.RuleRow): RuleSpec {
  const parsed = parseRules(JSON.parse(row.rules));
  if (!parsed.ok) throw new Error(`Stored rules of ${row.id} no longer validate: ${parsed.errors.join('; ')}`);
  return {
    id: row.id,
    tree: parsed.tree,
    message: row.error_message,
    applicable: parseApplicable(JSON.parse(row.applicable_to), []),
  };
}

/**
 * Parsed rules by what they were parsed from (the engine only reads a spec): every checkout of
 * a voucher re-reads the same rule, and parsing it was most of the check's own time. Keyed by
 * the row's content, so an edited rule is parsed anew; bounded (cleared when full).
 */
const parsedSpecs = new Map<string, RuleSpec>();
const PARSED_SPECS_MAX = 1000;

function specOf(row: repo.RuleRow): RuleSpec {
  const key = `${row.id}\u0000${row.error_message ?? ''}\u0000${row.rules}\u0000${row.applicable_to}`;
  let spec = parsedSpecs.get(key);
  if (!spec) {
    spec = parseSpec(row);
    if (parsedSpecs.size >= PARSED_SPECS_MAX) parsedSpecs.clear();
    parsedSpecs.set(key, spec);
  }
  return spec;
}

/** Every collection a rule names, in its item conditions (nested ones too) and applicable_to. */
function collectionsOf(spec: RuleSpec): string[] {
  const ofTree = (tree: RuleTree): string[] =>
    [...tree.conditions.values()].flatMap((c: RuleCondition) =>
      c.kind === 'items'
        ? [
            ...c.targets.filter((t) => t.object === 'products_collection').map((t) => t.id),
            ...(c.itemRules ? ofTree(c.itemRules) : []),
          ]
        : [],
    );
  const entries = [...spec.applicable.included, ...spec.applicable.excluded]
    .filter((e) => e.object === 'products_collection')
    .map((e) => e.id);
  return [...ofTree(spec.tree), ...entries];
}

/** The order's items with the collections (of those the rules name) each belongs to: a few queries for all items. */
async function ruleItems(db: Db, clock: Clock, specs: RuleSpec[], order: RulesInput['order']): Promise<RuleItem[]> {
  const items = order?.items ?? [];
  const named = [...new Set(specs.flatMap(collectionsOf))];
  const ids = {
    productIds: [...new Set(items.flatMap((i) => (i.product_id ? [i.product_id] : [])))],
    skuIds: [...new Set(items.flatMap((i) => (i.sku_id ? [i.sku_id] : [])))],
  };
  const members =
    named.length === 0 || items.length === 0
      ? new Map<string, Set<string>>()
      : await collectionsMembersAmong({ db, clock }, named, ids);
  return items.map((item) => ({
    ...item,
    collection_ids: named.filter((id) => {
      const held = members.get(id);
      return (
        held !== undefined &&
        ((item.product_id !== null && held.has(item.product_id)) || (item.sku_id !== null && held.has(item.sku_id)))
      );
    }),
  }));
}

const readsCustomerRedemptions = (spec: RuleSpec): boolean =>
  [...spec.tree.conditions.values()].some((c) => c.kind === 'filter' && c.name === 'redemption.count.per_customer');

const readsCustomerSegments = (spec: RuleSpec): boolean =>
  [...spec.tree.conditions.values()].some((c) => c.kind === 'filter' && c.name === 'customer.segment');

/** The rules' customer: its metadata, and its segments' ids when a rule reads them (a customer not stored yet has none). */
async function ruleCustomer(db: Db, specs: RuleSpec[], customer: RulesInput['customer']) {
  if (!customer) return null;
  if (!specs.some(readsCustomerSegments)) return { metadata: customer.metadata };
  return {
    metadata: customer.metadata,
    segments: customer.id === null ? [] : await customerSegmentIds(db, customer.id),
  };
}

const entryResult = (entry: ApplicableEntry, items: RuleItem[]) => ({
  object: entry.object,
  id: entry.id,
  effect: entry.effect,
  quantity_limit: entry.quantity_limit,
  aggregated_quantity_limit: entry.aggregated_quantity_limit,
  order_item_indices: matchingIndices(items, entry),
});

const resultList = (data: ApplicableList['data']): ApplicableList => ({
  data,
  total: data.length,
  data_ref: 'data',
  object: 'list',
});

/**
 * The seam the redemption pipeline calls: every rule assigned to any subject, judged against
 * the customer and the order (first failure wins, in assignment order), and, when all pass,
 * which items the discount may touch (null: every item). Three queries plus one or two per
 * product collection the rules name, whatever the number of items.
 */
export async function checkValidationRules(
  db: Db,
  input: RulesInput,
  clock: Clock = systemClock,
): Promise<RulesOutcome> {
  const wanted = new Set(input.subjects.map((s) => `${s.object}:${s.id}`));
  const assignments = (
    input.assignments ??
    (await repo.listAssignmentsOfObjects(
      db,
      input.subjects.map((s) => s.id),
    ))
  ).filter((a) => wanted.has(`${a.related_object_type}:${a.related_object_id}`));
  const ruleIds = [...new Set(assignments.map((a) => a.rule_id))];
  const rows = new Map((await repo.findRulesByIds(db, ruleIds)).map((row) => [row.id, row]));
  const specs = ruleIds.flatMap((id) => (rows.has(id) ? [specOf(rows.get(id) as repo.RuleRow)] : []));
  const items = await ruleItems(db, clock, specs, input.order);
  const context = {
    customer: await ruleCustomer(db, specs, input.customer),
    order: input.order && { amount: input.order.amount, metadata: input.order.metadata, items },
    customerRedemptions:
      specs.some(readsCustomerRedemptions) && input.customerRedemptions ? await input.customerRedemptions() : 0,
  };
  const now = clock.now();
  let allowed: ItemTarget[] | null = null;
  for (const spec of specs) {
    const verdict = evaluateRule(spec, context, now);
    if (!verdict.ok) return { ...verdict, rule_id: spec.id };
    allowed = intersectItems(allowed, applicableItems(spec.applicable, items));
  }
  return {
    ok: true,
    items: allowed,
    applicable_to: resultList(specs.flatMap((s) => s.applicable.included.map((e) => entryResult(e, items)))),
    inapplicable_to: resultList(specs.flatMap((s) => s.applicable.excluded.map((e) => entryResult(e, items)))),
  };
}
