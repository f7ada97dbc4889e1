import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { inBatches } from '../../../db/batches.js';
import { notIndexed } from '../../../db/sqlite/plan-hints.js';
import type { SkuTable } from '../catalog.table.js';
import type { ListWindow } from '../catalog-list.types.js';
import type { Db } from '../../../db/engine.js';
import { dialectOf } from '../../../db/dialect.js';

export type SkuRow = Selectable<SkuTable>;
export type SkuPatch = Updateable<SkuTable>;

export const findSkuById = (db: Db, id: string): Promise<SkuRow | undefined> =>
  db.selectFrom('skus').selectAll().where('id', '=', id).executeTakeFirst();

export const findSkuBySourceId = (db: Db, sourceId: string): Promise<SkuRow | undefined> =>
  db.selectFrom('skus').selectAll().where('source_id', '=', sourceId).executeTakeFirst();

/** A path key is an id or a source_id; the id wins when both could match. */
export const findSkuByKey = async (db: Db, key: string): Promise<SkuRow | undefined> =>
  (await findSkuById(db, key)) ?? (await findSkuBySourceId(db, key));

export const findSkusByIds = (db: Db, ids: readonly string[]): Promise<SkuRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('skus').selectAll().where('id', 'in', ids).execute();

export const findSkusBySourceIds = (db: Db, sourceIds: readonly string[]): Promise<SkuRow[]> =>
  inBatches(sourceIds, (batch) => db.selectFrom('skus').selectAll().where('source_id', 'in', batch).execute());

/** SKUs whose id or source_id is one of these keys. */
export const findSkusByKeys = (db: Db, keys: readonly string[]): Promise<SkuRow[]> =>
  inBatches(keys, (batch) =>
    db
      .selectFrom('skus')
      .selectAll()
      .where((eb) => eb.or([eb('id', 'in', batch), eb('source_id', 'in', batch)]))
      .execute(),
  );

export const insertSku = async (db: Db, row: Insertable<SkuTable>): Promise<void> => {
  await db.insertInto('skus').values(row).execute();
};

export const updateSku = async (db: Db, id: string, patch: SkuPatch): Promise<void> => {
  await db.updateTable('skus').set(patch).where('id', '=', id).execute();
};

export const deleteSku = async (db: Db, id: string): Promise<boolean> => {
  const result = await db.deleteFrom('skus').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
};

/**
 * A product's SKUs in the creation window. Listed by updated_at, the window is checked on
 * skus_product_updated_at's entries (it holds created_at) during the ordered walk.
 */
const ofProduct = (
  db: Db,
  productId: string,
  w: Pick<ListWindow, 'createdFrom' | 'createdTo'> & { sort?: ListWindow['sort'] },
) => {
  const createdAt = w.sort?.field === 'updated_at' ? notIndexed('created_at') : 'created_at';
  let query = db.selectFrom('skus').where('product_id', '=', productId);
  if (w.createdFrom !== undefined) query = query.where(createdAt, '>=', w.createdFrom);
  if (w.createdTo !== undefined) query = query.where(createdAt, '<=', w.createdTo);
  return query;
};

export const listSkusOfProduct = (db: Db, productId: string, w: ListWindow): Promise<SkuRow[]> =>
  ofProduct(db, productId, w)
    .selectAll()
    .orderBy(w.sort.field, w.sort.direction)
    .$if(w.sort.field === 'updated_at', (q) => q.orderBy('created_at', w.sort.direction))
    .orderBy('id', w.sort.direction)
    .limit(w.limit)
    .offset(w.offset)
    .execute();

export const countSkusOfProduct = async (
  db: Db,
  productId: string,
  w: Pick<ListWindow, 'createdFrom' | 'createdTo'>,
): Promise<number> =>
  (
    await ofProduct(db, productId, w)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** Every SKU of these products, oldest first: the embedded SKU lists, in one query. */
export const listSkusOfProducts = (db: Db, productIds: readonly string[]): Promise<SkuRow[]> =>
  productIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('skus')
        .selectAll()
        .where('product_id', 'in', productIds)
        .orderBy('product_id')
        .orderBy('created_at')
        .orderBy('id')
        .execute();

/**
 * The attribute names the SKUs of a product set, each once. Raw SQL: Kysely's builder has no
 * form for a table-valued function (db/dialect.ts jsonObjectEntries) joined to a table.
 */
export const skuAttributeNamesOfProduct = async (db: Db, productId: string): Promise<string[]> => {
  const result = await sql<{ key: string }>`
    SELECT DISTINCT attribute.key AS key FROM skus, ${dialectOf(db).jsonObjectEntries('skus.attributes')} AS attribute
    WHERE skus.product_id = ${productId}`.execute(db);
  return result.rows.map((row) => row.key);
};
