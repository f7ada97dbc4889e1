import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { listShape, queryTemplate } from '../../db/query-template.js';
import type { CategoryTable } from './categories.table.js';

type Db = Kysely<Database>;
export type CategoryRow = Selectable<CategoryTable>;

export const findCategoryById = (db: Db, id: string): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();

export const findCategoryByName = (db: Db, name: string): Promise<CategoryRow | undefined> =>
  db.selectFrom('categories').selectAll().where('name', '=', name).executeTakeFirst();

// Voucher reads present their category: compiled once per list length.
const byIds = queryTemplate<{ ids: readonly string[] }, CategoryRow>((db, param, shape) =>
  db.selectFrom('categories').selectAll().where('id', 'in', param.list('ids', Number(shape))),
);

export const findCategoriesByIds = (db: Db, ids: string[]): Promise<CategoryRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : byIds(db, { ids }, listShape(ids));

export const insertCategory = async (db: Db, row: CategoryRow): Promise<void> => {
  await db.insertInto('categories').values(row).onConflict((oc) => oc.column('name').doNothing()).execute();
};
