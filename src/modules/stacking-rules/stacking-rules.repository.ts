import type { Insertable, Selectable } from 'kysely';
import { lockingRead } from '../../db/locks.js';
import { queryTemplate } from '../../db/query-template.js';
import type { StackingRulesTable } from './stacking-rules.table.js';
import type { Db } from '../../db/engine.js';

export type StackingRulesRow = Selectable<StackingRulesTable>;

/** The one row, by its primary key (every checkout reads it). */
const theRow = queryTemplate<Record<string, never>, StackingRulesRow>((db) =>
  db.selectFrom('stacking_rules').selectAll().where('singleton', '=', 1),
);

export const findRules = async (db: Db): Promise<StackingRulesRow | undefined> => (await theRow(db, {}))[0];

/**
 * The row a change merges into, locked until its transaction ends (db/locks.ts): two changes
 * from two servers merge one after the other, neither losing the other's fields.
 */
export const findRulesForChange = (db: Db): Promise<StackingRulesRow | undefined> =>
  lockingRead(db, db.selectFrom('stacking_rules').selectAll().where('singleton', '=', 1)).executeTakeFirst();

export const insertRules = async (db: Db, row: Insertable<StackingRulesTable>): Promise<void> => {
  await db.insertInto('stacking_rules').values(row).execute();
};

export const updateRules = async (db: Db, rules: string, updatedAt: string): Promise<void> => {
  await db.updateTable('stacking_rules').set({ rules, updated_at: updatedAt }).where('singleton', '=', 1).execute();
};

export const deleteRules = async (db: Db): Promise<void> => {
  await db.deleteFrom('stacking_rules').where('singleton', '=', 1).execute();
};
