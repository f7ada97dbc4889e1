import { lockedRow } from '../../../db/locks.js';
import type { Deps } from '../../../app/deps.js';
import { isoNow } from '../../../lib/clock.js';
import { duplicateFound, invalidPayload, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { parse } from '../../../lib/validate.js';
import type { ListWindow } from '../catalog-list.types.js';
import * as products from './products.repository.js';
import {
  presentProduct,
  presentProductsWithSkus,
  presentProductWithSkus,
  type ProductView,
} from './products.presenter.js';
import { updateProductSchema, type CreateProductInput, type UpdateProductInput } from './products.schemas.js';
import * as skus from '../skus/skus.repository.js';
import type { Db, Tx } from '../../../db/engine.js';

export type CatalogDeps = Pick<Deps, 'db' | 'clock'>;

/** Refuses a name or source_id that another product holds (409 duplicate_found). */
async function assertProductUnique(db: Db, selfId: string | undefined, input: UpdateProductInput): Promise<void> {
  if (input.name != null) {
    const holder = await products.findProductIdByName(db, input.name);
    if (holder !== undefined && holder !== selfId) throw duplicateFound('product', 'name', input.name);
  }
  if (input.source_id != null) {
    const holder = await products.findProductBySourceId(db, input.source_id);
    if (holder !== undefined && holder.id !== selfId) throw duplicateFound('product', 'source_id', input.source_id);
  }
}

/** A product may not drop an attribute that one of its SKUs sets. */
async function assertAttributesCoverSkus(db: Db, productId: string, attributes: string[]): Promise<void> {
  const declared = new Set(attributes);
  const missing = (await skus.skuAttributeNamesOfProduct(db, productId)).filter((name) => !declared.has(name));
  if (missing.length > 0) {
    throw invalidPayload(
      `attributes: SKUs of product ${productId} set ${missing.sort().join(', ')}; remove it from them first`,
    );
  }
}

/** The stored columns a body changes; fields it leaves out stay as they are. */
function patchOf(input: UpdateProductInput): products.ProductPatch {
  const patch: products.ProductPatch = {};
  if (input.source_id !== undefined) patch.source_id = input.source_id;
  if (input.name !== undefined) patch.name = input.name;
  if (input.price !== undefined) patch.price = input.price;
  if (input.attributes !== undefined) patch.attributes = JSON.stringify(input.attributes);
  if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
  if (input.image_url !== undefined) patch.image_url = input.image_url;
  return patch;
}

/** The row after an update (checked, not written). */
async function updatedRow(
  db: Db,
  row: products.ProductRow,
  input: UpdateProductInput,
  now: string,
): Promise<products.ProductRow> {
  await assertProductUnique(db, row.id, input);
  if (input.attributes !== undefined) await assertAttributesCoverSkus(db, row.id, input.attributes);
  return { ...row, ...patchOf(input), updated_at: now } as products.ProductRow;
}

async function applyUpdate(
  db: Db,
  row: products.ProductRow,
  input: UpdateProductInput,
  now: string,
): Promise<products.ProductRow> {
  const updated = await updatedRow(db, row, input, now);
  await products.updateProduct(db, row.id, { ...patchOf(input), updated_at: now });
  return updated;
}

/** The product an upsert names by `id` (404 when unknown) or `source_id`. */
async function namedProduct(db: Db, input: CreateProductInput): Promise<products.ProductRow | undefined> {
  if (input.id === undefined)
    return input.source_id != null ? products.findProductBySourceId(db, input.source_id) : undefined;
  const existing = await products.findProductById(db, input.id);
  if (!existing) throw notFound('product', input.id);
  return existing;
}

/**
 * A new product's row (checked, not written). Its source_id was looked up just before and is
 * free: only the name is checked again. On PostgreSQL a concurrent upsert of the same new
 * source_id may commit between the two reads (READ COMMITTED); the unique index then refuses
 * this insert and the transaction is re-run whole, finding the winner's row to update, as
 * SQLite's one writer would have (a second check here answered that race 409).
 */
async function newRow(db: Db, input: CreateProductInput, now: string): Promise<products.ProductRow> {
  await assertProductUnique(db, undefined, { name: input.name });
  return {
    id: newId('prod_'),
    source_id: input.source_id ?? null,
    name: input.name ?? null,
    price: input.price ?? null,
    attributes: JSON.stringify(input.attributes ?? []),
    metadata: JSON.stringify(input.metadata ?? {}),
    image_url: input.image_url ?? null,
    created_at: now,
    updated_at: null,
  };
}

/**
 * Creates a product, or updates the one the input names by `id` or `source_id`, inside the
 * caller's transaction (orders create and override products from their items this way). An
 * unknown `id` is 404: ids are assigned here, never chosen.
 */
export async function upsertProduct(trx: Tx, input: CreateProductInput, now: string): Promise<ProductView> {
  return storeProduct(trx, await namedProduct(trx, input), input, now);
}

/** Updates `existing` with the input, or creates the product when there is none. */
async function storeProduct(
  trx: Tx,
  existing: products.ProductRow | undefined,
  input: CreateProductInput,
  now: string,
): Promise<ProductView> {
  if (existing) return presentProduct(await applyUpdate(trx, existing, input, now));
  const created = await newRow(trx, input, now);
  await products.insertProduct(trx, created);
  return presentProduct(created);
}

/**
 * PRODUCTS.METADATA_UPDATE, one product: the given keys merged into the metadata of the
 * product with that source_id (the others kept), through the same upsert as POST; an unknown
 * source_id is a new product with that metadata (the reference upserts).
 */
export async function mergeProductMetadata(
  trx: Tx,
  sourceId: string,
  metadata: Record<string, unknown>,
  now: string,
): Promise<void> {
  const row = await lockedRow(trx, 'products', await products.findProductBySourceId(trx, sourceId), (id) =>
    products.findProductById(trx, id),
  );
  const merged = { ...(row ? (JSON.parse(row.metadata) as Record<string, unknown>) : {}), ...metadata };
  await storeProduct(trx, row, parse(updateProductSchema, { source_id: sourceId, metadata: merged }, 'item'), now);
}

/** What upsertProduct would answer, from the same reads and checks alone: nothing is written (a validation's order). */
export async function previewProduct(db: Db, input: CreateProductInput, now: string): Promise<ProductView> {
  const existing = await namedProduct(db, input);
  return presentProduct(existing ? await updatedRow(db, existing, input, now) : await newRow(db, input, now));
}

/** POST /v1/products: as in the reference, an `id` or `source_id` that exists updates that product. */
export async function createProduct(deps: CatalogDeps, input: CreateProductInput): Promise<ProductView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute((trx) => upsertProduct(trx, input, now));
}

/** PUT /v1/products/{id or source_id}. */
export async function updateProduct(deps: CatalogDeps, key: string, input: UpdateProductInput): Promise<ProductView> {
  const now = isoNow(deps.clock);
  const row = await deps.db.transaction().execute(async (trx) => {
    const existing = await products.findProductByKey(trx, key);
    if (!existing) throw notFound('product', key);
    return applyUpdate(trx, existing, input, now);
  });
  return presentProduct(row);
}

/** The product row behind a path key, or 404. For other catalog services. */
export async function requireProduct(db: Db, key: string): Promise<products.ProductRow> {
  const row = await products.findProductByKey(db, key);
  if (!row) throw notFound('product', key);
  return row;
}

/** GET /v1/products/{id or source_id}: the product with all its SKUs. */
export async function getProduct(deps: CatalogDeps, key: string) {
  const row = await requireProduct(deps.db, key);
  return presentProductWithSkus(row, await skus.listSkusOfProducts(deps.db, [row.id]));
}

/** GET /v1/products: a page of products, each with its SKUs (one query for all of them). */
export async function listProducts(deps: CatalogDeps, window: ListWindow) {
  const rows = await products.listProducts(deps.db, window);
  const total = await products.countProducts(deps.db, window);
  const skuRows = await skus.listSkusOfProducts(
    deps.db,
    rows.map((row) => row.id),
  );
  return listEnvelope('products', presentProductsWithSkus(rows, skuRows), { total });
}

/** DELETE /v1/products/{id or source_id}: the product, its SKUs and its static collection memberships. */
export async function deleteProduct(deps: CatalogDeps, key: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await requireProduct(trx, key);
    await products.deleteProduct(trx, row.id);
  });
}
