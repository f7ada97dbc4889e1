import type { Selectable } from 'kysely';
import { queryTemplate } from '../../../db/query-template.js';
import type { ProductCollectionItemTable, ProductCollectionTable } from '../catalog.table.js';
import type { CollectionListQuery } from './product-collections.schemas.js';
import type { Db } from '../../../db/engine.js';

export type CollectionRow = Selectable<ProductCollectionTable>;
/** A member as given (the sort keys sql/0005 adds are the database's to fill). */
export type CollectionItemRow = Pick<
  Selectable<ProductCollectionItemTable>,
  'collection_id' | 'position' | 'object' | 'product_id' | 'sku_id'
>;

// A collection a validation rule names is read by each checkout it applies to.
const collectionById = queryTemplate<{ id: string }, CollectionRow>((db, param) =>
  db.selectFrom('product_collections').selectAll().where('id', '=', param('id')),
);

export const findCollectionById = async (db: Db, id: string): Promise<CollectionRow | undefined> =>
  (await collectionById(db, { id }))[0];

export const findCollectionIdByName = async (db: Db, name: string): Promise<string | undefined> =>
  (await db.selectFrom('product_collections').select('id').where('name', '=', name).executeTakeFirst())?.id;

export const insertCollection = async (db: Db, row: CollectionRow): Promise<void> => {
  await db.insertInto('product_collections').values(row).execute();
};

/** Inserts a static collection's members, in bounded batches (SQLite caps bound parameters). */
export const insertCollectionItems = async (db: Db, rows: CollectionItemRow[]): Promise<void> => {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('product_collection_items')
      .values(rows.slice(i, i + 500))
      .execute();
  }
};

/** Deletes a collection; its static members go with it (ON DELETE CASCADE). */
export const deleteCollection = async (db: Db, id: string): Promise<boolean> => {
  const result = await db.deleteFrom('product_collections').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
};

export const listCollections = (db: Db, q: CollectionListQuery): Promise<CollectionRow[]> => {
  let query = db.selectFrom('product_collections').selectAll();
  if (q.sort.field === 'type') query = query.orderBy('type', q.sort.direction);
  return query
    .orderBy('created_at', q.sort.direction)
    .orderBy('id', q.sort.direction)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
};

export const countCollections = async (db: Db): Promise<number> =>
  (
    await db
      .selectFrom('product_collections')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** The members of these static collections, each collection's in its given order. */
export const listItemsOfCollections = (db: Db, ids: readonly string[]): Promise<CollectionItemRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('product_collection_items')
        .select(['collection_id', 'position', 'object', 'product_id', 'sku_id'])
        .where('collection_id', 'in', ids)
        .orderBy('collection_id')
        .orderBy('position')
        .execute();
