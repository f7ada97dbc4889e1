import { sql, type Insertable, type Selectable } from 'kysely';
import { keysTemplate } from '../../db/query-template.js';
import type { CategoryTable } from './categories.table.js';
import type { Db } from '../../db/engine.js';

export type CategoryRow = Selectable<CategoryTable>;

export const findCategoryById = (db: Db, id: string): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();

export const findCategoryByName = (db: Db, name: string): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('name', '=', name).executeTakeFirst();

// Voucher reads present their category.
export const findCategoriesByIds = keysTemplate<string, CategoryRow>((db, ids) =>
  db.selectFrom('categories').selectAll().where('id', 'in', ids),
);

export const insertCategory = async (db: Db, row: Insertable<CategoryTable>): Promise<void> => {
  await db
    .insertInto('categories')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
};

/** Every category in the order they were made. */
export const listCategories = (db: Db): Promise<CategoryRow[]> =>
  db.selectFrom('categories').selectAll().orderBy('seq').execute();

export async function updateCategory(
  db: Db,
  id: string,
  changes: Partial<Pick<CategoryRow, 'name' | 'hierarchy'>>,
  at: string,
): Promise<void> {
  await db
    .updateTable('categories')
    .set({ ...changes, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Throws SQLITE_CONSTRAINT_FOREIGNKEY while a campaign, voucher, promotion tier or stack names it. */
export async function deleteCategory(db: Db, id: string): Promise<void> {
  await db.deleteFrom('categories').where('id', '=', id).execute();
}
