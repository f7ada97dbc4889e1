import type { Insertable, Selectable, Updateable } from 'kysely';
import { notIndexed } from '../../db/sqlite/plan-hints.js';
import { keysTemplate } from '../../db/query-template.js';
import type { OrderBy } from '../../lib/pagination.js';
import type { ValidationRuleAssignmentTable, ValidationRuleTable } from './validation-rules.table.js';
import type { Db } from '../../db/engine.js';

export type RuleRow = Selectable<ValidationRuleTable>;
export type RuleAssignmentRow = Selectable<ValidationRuleAssignmentTable>;
export type RuleOrderField = 'created_at' | 'updated_at' | 'name';

export const findRuleById = (db: Db, id: string): Promise<RuleRow | undefined> =>
  db.selectFrom('validation_rules').selectAll().where('id', '=', id).executeTakeFirst();

// The rules of the vouchers a validation or redemption checks.
export const findRulesByIds = keysTemplate<string, RuleRow>((db, ids) =>
  db.selectFrom('validation_rules').selectAll().where('id', 'in', ids),
);

export const insertRule = async (db: Db, row: Insertable<ValidationRuleTable>): Promise<void> => {
  await db.insertInto('validation_rules').values(row).execute();
};

export const updateRule = async (db: Db, id: string, patch: Updateable<ValidationRuleTable>): Promise<void> => {
  await db.updateTable('validation_rules').set(patch).where('id', '=', id).execute();
};

/** Deletes the rule; its assignments go with it (ON DELETE CASCADE). */
export const deleteRule = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('validation_rules').where('id', '=', id).execute();
};

export interface RuleFilter {
  createdFrom?: string;
  createdTo?: string;
}

/**
 * The rules in a creation window. Ordered by another field, the window is checked while that
 * field's index is walked (plan-hints.ts), so a page never sorts the whole window.
 */
const ruleQuery = (db: Db, filter: RuleFilter, orderField: RuleOrderField = 'created_at') => {
  const created = orderField === 'created_at' ? 'created_at' : notIndexed('created_at');
  return db
    .selectFrom('validation_rules')
    .$if(filter.createdFrom !== undefined, (q) => q.where(created, '>=', filter.createdFrom as string))
    .$if(filter.createdTo !== undefined, (q) => q.where(created, '<=', filter.createdTo as string));
};

/** A page of rules in the order asked, each on its index (seq breaks ties). */
export const listRules = (
  db: Db,
  filter: RuleFilter,
  page: { limit: number; offset: number; order: OrderBy<RuleOrderField> },
): Promise<RuleRow[]> =>
  ruleQuery(db, filter, page.order.field)
    .selectAll()
    .orderBy(page.order.field, page.order.direction)
    .orderBy('seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export const countRules = async (db: Db, filter: RuleFilter): Promise<number> =>
  (
    await ruleQuery(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** How many objects each of these rules is assigned to (one grouped read on the rule index). */
export async function countAssignmentsOf(db: Db, ruleIds: readonly string[]): Promise<Map<string, number>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('validation_rules_assignments')
    .select(['rule_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('rule_id', 'in', ruleIds)
    .groupBy('rule_id')
    .execute();
  return new Map(rows.map((row) => [row.rule_id, row.n]));
}

export const insertRuleAssignmentRows = async (
  db: Db,
  rows: Insertable<ValidationRuleAssignmentTable>[],
): Promise<void> => {
  if (rows.length > 0) await db.insertInto('validation_rules_assignments').values(rows).execute();
};

export const findAssignment = (db: Db, ruleId: string, id: string): Promise<RuleAssignmentRow | undefined> =>
  db
    .selectFrom('validation_rules_assignments')
    .selectAll()
    .where('id', '=', id)
    .where('rule_id', '=', ruleId)
    .executeTakeFirst();

export const findAssignmentOf = (db: Db, ruleId: string, objectId: string): Promise<RuleAssignmentRow | undefined> =>
  db
    .selectFrom('validation_rules_assignments')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .where('related_object_id', '=', objectId)
    .executeTakeFirst();

export const deleteRuleAssignmentRow = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('validation_rules_assignments').where('id', '=', id).execute();
};

/** Removes every assignment of these objects (they are being deleted). */
export const deleteAssignmentsOf = async (db: Db, objectIds: readonly string[]): Promise<void> => {
  if (objectIds.length > 0)
    await db.deleteFrom('validation_rules_assignments').where('related_object_id', 'in', objectIds).execute();
};

// Every voucher read asks for its assignments.
const assignmentsByObjects = keysTemplate<string, RuleAssignmentRow>((db, ids) =>
  db.selectFrom('validation_rules_assignments').selectAll().where('related_object_id', 'in', ids),
);

/**
 * The assignments of these objects, in creation order: one read on the object index. An
 * object holds a few rules, so they are ordered here rather than by a sort in SQL (an IN
 * list cannot walk the index in order).
 */
export async function listAssignmentsOfObjects(db: Db, objectIds: readonly string[]): Promise<RuleAssignmentRow[]> {
  const rows = await assignmentsByObjects(db, objectIds);
  return rows.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.seq - b.seq));
}

export interface AssignmentFilter {
  ruleId?: string;
  objectId?: string;
}

const assignmentQuery = (db: Db, filter: AssignmentFilter) =>
  db
    .selectFrom('validation_rules_assignments')
    .$if(filter.ruleId !== undefined, (q) => q.where('rule_id', '=', filter.ruleId as string))
    .$if(filter.objectId !== undefined, (q) => q.where('related_object_id', '=', filter.objectId as string));

/** A page of assignments by creation time, on the index of the filter given. */
export const listRuleAssignmentRows = (
  db: Db,
  filter: AssignmentFilter,
  page: { limit: number; offset: number; direction: 'asc' | 'desc' },
): Promise<RuleAssignmentRow[]> =>
  assignmentQuery(db, filter)
    .selectAll()
    .orderBy('created_at', page.direction)
    .orderBy('seq', page.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export const countRuleAssignmentRows = async (db: Db, filter: AssignmentFilter): Promise<number> =>
  (
    await assignmentQuery(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
