import type { Insertable, Selectable, Updateable } from 'kysely';
import { inBatches } from '../../../db/batches.js';
import { keysTemplate } from '../../../db/query-template.js';
import { notIndexed } from '../../../db/sqlite/plan-hints.js';
import type { ProductTable } from '../catalog.table.js';
import type { ListWindow } from '../catalog-list.types.js';
import type { Db } from '../../../db/engine.js';

export type ProductRow = Selectable<ProductTable>;
export type ProductPatch = Updateable<ProductTable>;

export const findProductById = (db: Db, id: string): Promise<ProductRow | undefined> =>
  db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();

export const findProductBySourceId = (db: Db, sourceId: string): Promise<ProductRow | undefined> =>
  db.selectFrom('products').selectAll().where('source_id', '=', sourceId).executeTakeFirst();

/** A path key is an id or a source_id; the id wins when both could match. */
export const findProductByKey = async (db: Db, key: string): Promise<ProductRow | undefined> =>
  (await findProductById(db, key)) ?? (await findProductBySourceId(db, key));

export const findProductIdByName = async (db: Db, name: string): Promise<string | undefined> =>
  (await db.selectFrom('products').select('id').where('name', '=', name).executeTakeFirst())?.id;

// An order's products (each redemption and validation reads them, and each import portion
// the items of all its orders): one of a few compiled statements however many keys.
export const findProductsByIds = keysTemplate<string, ProductRow>((db, ids) =>
  db.selectFrom('products').selectAll().where('id', 'in', ids),
);

export const findProductsBySourceIds = keysTemplate<string, ProductRow>((db, sourceIds) =>
  db.selectFrom('products').selectAll().where('source_id', 'in', sourceIds),
);

/** Products whose id or source_id is one of these keys. */
export const findProductsByKeys = (db: Db, keys: readonly string[]): Promise<ProductRow[]> =>
  inBatches(keys, (batch) =>
    db
      .selectFrom('products')
      .selectAll()
      .where((eb) => eb.or([eb('id', 'in', batch), eb('source_id', 'in', batch)]))
      .execute(),
  );

export const insertProduct = async (db: Db, row: Insertable<ProductTable>): Promise<void> => {
  await db.insertInto('products').values(row).execute();
};

export const updateProduct = async (db: Db, id: string, patch: ProductPatch): Promise<void> => {
  await db.updateTable('products').set(patch).where('id', '=', id).execute();
};

/** Deletes a product; its SKUs and static collection memberships go with it (ON DELETE CASCADE). */
export const deleteProduct = async (db: Db, id: string): Promise<boolean> => {
  const result = await db.deleteFrom('products').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
};

/**
 * The creation window. Listed by updated_at, the window is checked on products_updated_at's
 * entries (it holds created_at) during the ordered walk, not read as a range then sorted.
 */
const windowed = (db: Db, w: Pick<ListWindow, 'createdFrom' | 'createdTo'> & { sort?: ListWindow['sort'] }) => {
  const createdAt = w.sort?.field === 'updated_at' ? notIndexed('created_at') : 'created_at';
  let query = db.selectFrom('products');
  if (w.createdFrom !== undefined) query = query.where(createdAt, '>=', w.createdFrom);
  if (w.createdTo !== undefined) query = query.where(createdAt, '<=', w.createdTo);
  return query;
};

export const listProducts = (db: Db, w: ListWindow): Promise<ProductRow[]> =>
  windowed(db, w)
    .selectAll()
    .orderBy(w.sort.field, w.sort.direction)
    .$if(w.sort.field === 'updated_at', (q) => q.orderBy('created_at', w.sort.direction))
    .orderBy('id', w.sort.direction)
    .limit(w.limit)
    .offset(w.offset)
    .execute();

export const countProducts = async (db: Db, w: Pick<ListWindow, 'createdFrom' | 'createdTo'>): Promise<number> =>
  (
    await windowed(db, w)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
