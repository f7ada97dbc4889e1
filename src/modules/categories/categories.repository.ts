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

/**
 * A new category (POST /v1/categories): a name another transaction took since the caller
 * checked it fails on the unique index, and the transaction is re-run whole (PostgreSQL) to
 * answer 409 from the check.
 */
export const insertCategory = async (db: Db, row: Insertable<CategoryTable>): Promise<void> => {
  await db.insertInto('categories').values(row).execute();
};

/** A category a voucher or campaign names, unless another transaction made it first (the caller reads it back by name). */
export const insertCategoryIfAbsent = async (db: Db, row: Insertable<CategoryTable>): Promise<void> => {
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
