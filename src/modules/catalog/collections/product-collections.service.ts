import { validateFilter } from '../../../engine/conditions/index.js';
import { isoNow } from '../../../lib/clock.js';
import { duplicateFound, invalidPayload, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { COLLECTION_FIELDS } from './collection-fields.rules.js';
import * as collections from './product-collections.repository.js';
import { presentCollection, type CollectionView } from './product-collections.presenter.js';
import type {
  CollectionListQuery,
  CollectionMemberInput,
  CreateCollectionInput,
} from './product-collections.schemas.js';
import * as products from '../products/products.repository.js';
import type { CatalogDeps } from '../products/products.service.js';
import * as skus from '../skus/skus.repository.js';
import type { Db } from '../../../db/engine.js';

/** The stored filter of an AUTO_UPDATE collection, checked by the condition engine. */
function checkedFilter(input: CreateCollectionInput): string {
  const checked = validateFilter(input.filter, COLLECTION_FIELDS);
  if (!checked.ok) throw invalidPayload(checked.errors.join('; '));
  return JSON.stringify(checked.json);
}

/** Maps each key to its row: an id match wins over a source_id match. */
function byKey<R extends { id: string; source_id: string | null }>(rows: R[]): Map<string, R> {
  const map = new Map<string, R>();
  for (const row of rows) if (row.source_id !== null && !map.has(row.source_id)) map.set(row.source_id, row);
  for (const row of rows) map.set(row.id, row);
  return map;
}

/** Looks up every listed product and SKU (ids or source ids) in a few batched queries. */
async function lookUpMembers(db: Db, members: CollectionMemberInput[]) {
  const productKeys = members.flatMap((m) =>
    m.object === 'product' ? [m.id] : m.product_id !== undefined ? [m.product_id] : [],
  );
  const skuKeys = members.filter((m) => m.object === 'sku').map((m) => m.id);
  return {
    products: byKey(await products.findProductsByKeys(db, [...new Set(productKeys)])),
    skus: byKey(await skus.findSkusByKeys(db, [...new Set(skuKeys)])),
  };
}

type Found = Awaited<ReturnType<typeof lookUpMembers>>;

/** A listed product or SKU as a stored member; an unknown one is 404. */
function resolveMember(found: Found, member: CollectionMemberInput, index: number) {
  if (member.object === 'product') {
    const row = found.products.get(member.id);
    if (!row) throw notFound('product', member.id);
    return { object: 'product' as const, product_id: row.id, sku_id: null };
  }
  const row = found.skus.get(member.id);
  if (!row) throw notFound('sku', member.id);
  if (member.product_id !== undefined && found.products.get(member.product_id)?.id !== row.product_id) {
    throw invalidPayload(
      `products[${index}].product_id: sku ${row.id} belongs to product ${row.product_id}, not ${member.product_id}`,
    );
  }
  return { object: 'sku' as const, product_id: row.product_id, sku_id: row.id };
}

async function resolveMembers(db: Db, collectionId: string, members: CollectionMemberInput[]) {
  const found = await lookUpMembers(db, members);
  const seen = new Set<string>();
  return members.map((member, index): collections.CollectionItemRow => {
    const resolved = resolveMember(found, member, index);
    const key = resolved.sku_id ?? resolved.product_id;
    if (seen.has(key)) throw invalidPayload(`products[${index}]: ${member.object} ${key} is listed twice`);
    seen.add(key);
    return { collection_id: collectionId, position: index, ...resolved };
  });
}

/** POST /v1/product-collections: STATIC with existing products and SKUs, or AUTO_UPDATE with a filter. */
export async function createCollection(deps: CatalogDeps, input: CreateCollectionInput): Promise<CollectionView> {
  const isStatic = input.type === 'STATIC';
  const filter = isStatic ? null : checkedFilter(input);
  const row: collections.CollectionRow = {
    id: newId('pc_'),
    name: input.name,
    type: input.type,
    filter,
    created_at: isoNow(deps.clock),
  };
  const items = await deps.db.transaction().execute(async (trx) => {
    if ((await collections.findCollectionIdByName(trx, input.name)) !== undefined) {
      throw duplicateFound('products_collection', 'name', input.name);
    }
    const members = isStatic ? await resolveMembers(trx, row.id, input.products ?? []) : [];
    await collections.insertCollection(trx, row);
    await collections.insertCollectionItems(trx, members);
    return members;
  });
  return presentCollection(row, items);
}

/** The collection row behind an id, or 404 (resource type `products_collection`, as the reference). */
export async function requireCollection(db: Db, id: string): Promise<collections.CollectionRow> {
  const row = await collections.findCollectionById(db, id);
  if (!row) throw notFound('products_collection', id);
  return row;
}

/** GET /v1/product-collections/{id}. */
export async function getCollection(deps: CatalogDeps, id: string): Promise<CollectionView> {
  const row = await requireCollection(deps.db, id);
  return presentCollection(row, await collections.listItemsOfCollections(deps.db, [row.id]));
}

/** GET /v1/product-collections ("List Product Collections"): static members of the whole page in one query. */
export async function listCollections(deps: CatalogDeps, query: CollectionListQuery) {
  const rows = await collections.listCollections(deps.db, query);
  const total = await collections.countCollections(deps.db);
  const items = await collections.listItemsOfCollections(
    deps.db,
    rows.filter((r) => r.type === 'STATIC').map((r) => r.id),
  );
  const byCollection = new Map<string, collections.CollectionItemRow[]>();
  for (const item of items) {
    const list = byCollection.get(item.collection_id);
    if (list) list.push(item);
    else byCollection.set(item.collection_id, [item]);
  }
  return listEnvelope(
    'data',
    rows.map((row) => presentCollection(row, byCollection.get(row.id) ?? [])),
    { total },
  );
}

/** DELETE /v1/product-collections/{id}. */
export async function deleteCollection(deps: CatalogDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireCollection(trx, id);
    await collections.deleteCollection(trx, id);
  });
}
