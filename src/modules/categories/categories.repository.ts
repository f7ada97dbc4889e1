import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { CategoryTable } from './categories.table.js';

type Db = Kysely<Database>;
export type CategoryRow = Selectable<CategoryTable>;

export const findCategoryById = (db: Db, id: string): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();

export const findCategoryByName = (db: Db, name: string): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('name', '=', name).executeTakeFirst();

export const findCategoriesByIds = (db: Db, ids: string[]): Promise<CategoryRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('categories').selectAll().where('id', 'in', ids).execute();

export const insertCategory = async (db: Db, row: CategoryRow): Promise<void> => {
  await db.insertInto('categories').values(row).onConflict((oc) => oc.column('name').doNothing()).execute();
};
