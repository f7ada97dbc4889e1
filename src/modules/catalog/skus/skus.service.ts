import { isoNow } from '../../../lib/clock.js';
import { duplicateFound, invalidPayload, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { listEnvelope } from '../../../lib/pagination.js';
import type { ListWindow } from '../catalog-list.types.js';
import type { ProductRow } from '../products/products.repository.js';
import { presentSku, type ProductView, type SkuView } from '../products/products.presenter.js';
import { requireProduct, type CatalogDeps } from '../products/products.service.js';
import type { CreateSkuInput, UpdateSkuInput } from './skus.schemas.js';
import * as skus from './skus.repository.js';
import type { Db, Tx } from '../../../db/engine.js';

/** What a SKU's checks need of its product. */
type SkuProduct = Pick<ProductRow, 'id' | 'attributes'>;

/** A SKU sets only attributes its product declares (400 otherwise). */
function assertAttributesDeclared(product: SkuProduct, attributes: Record<string, unknown> | undefined): void {
  if (attributes === undefined) return;
  const declared = JSON.parse(product.attributes) as string[];
  const unknown = Object.keys(attributes).filter((name) => !declared.includes(name));
  if (unknown.length > 0) {
    const list = declared.length > 0 ? declared.join(', ') : 'none';
    throw invalidPayload(
      `attributes: product ${product.id} does not declare ${unknown.join(', ')} (it declares: ${list})`,
    );
  }
}

async function assertSourceIdFree(
  db: Db,
  selfId: string | undefined,
  sourceId: string | null | undefined,
): Promise<void> {
  if (sourceId == null) return;
  const holder = await skus.findSkuBySourceId(db, sourceId);
  if (holder && holder.id !== selfId) throw duplicateFound('sku', 'source_id', sourceId);
}

function patchOf(input: UpdateSkuInput): skus.SkuPatch {
  const patch: skus.SkuPatch = {};
  if (input.source_id !== undefined) patch.source_id = input.source_id;
  if (input.sku !== undefined) patch.sku = input.sku;
  if (input.price !== undefined) patch.price = input.price;
  if (input.currency !== undefined) patch.currency = input.currency;
  if (input.attributes !== undefined) patch.attributes = JSON.stringify(input.attributes);
  if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
  if (input.image_url !== undefined) patch.image_url = input.image_url;
  return patch;
}

/** The row after an update (checked, not written). */
async function updatedRow(
  db: Db,
  product: SkuProduct,
  row: skus.SkuRow,
  input: UpdateSkuInput,
  now: string,
): Promise<skus.SkuRow> {
  assertAttributesDeclared(product, input.attributes);
  await assertSourceIdFree(db, row.id, input.source_id);
  return { ...row, ...patchOf(input), updated_at: now } as skus.SkuRow;
}

async function applyUpdate(
  db: Db,
  product: SkuProduct,
  row: skus.SkuRow,
  input: UpdateSkuInput,
  now: string,
): Promise<skus.SkuRow> {
  const updated = await updatedRow(db, product, row, input, now);
  await skus.updateSku(db, row.id, { ...patchOf(input), updated_at: now });
  return updated;
}

/** The SKU behind a path key, if it belongs to this product; else 404 sku. */
async function requireSkuOf(db: Db, product: SkuProduct, key: string): Promise<skus.SkuRow> {
  const row = await skus.findSkuByKey(db, key);
  if (!row || row.product_id !== product.id) throw notFound('sku', key);
  return row;
}

async function existingSku(db: Db, product: SkuProduct, input: { id?: string; source_id?: string | null }) {
  if (input.id !== undefined) return requireSkuOf(db, product, input.id);
  if (input.source_id == null) return undefined;
  const row = await skus.findSkuBySourceId(db, input.source_id);
  if (row && row.product_id !== product.id) throw duplicateFound('sku', 'source_id', input.source_id);
  return row;
}

/**
 * Creates a SKU of the product, or updates the product's SKU the input names by `id` or
 * `source_id`, inside the caller's transaction (orders create SKUs from their items this way).
 * A `source_id` held by another product's SKU is 409.
 */
/** A new SKU's row (checked, not written). */
function newRow(product: SkuProduct, input: CreateSkuInput, now: string): skus.SkuRow {
  assertAttributesDeclared(product, input.attributes);
  return {
    id: newId('sku_'),
    product_id: product.id,
    source_id: input.source_id ?? null,
    sku: input.sku ?? null,
    price: input.price ?? null,
    currency: input.currency ?? null,
    attributes: JSON.stringify(input.attributes ?? {}),
    image_url: input.image_url ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
    created_at: now,
    updated_at: null,
  };
}

export async function upsertSku(trx: Tx, productKey: string, input: CreateSkuInput, now: string): Promise<SkuView> {
  const product = await requireProduct(trx, productKey);
  const existing = await existingSku(trx, product, input);
  if (existing) return presentSku(await applyUpdate(trx, product, existing, input, now));
  const created = newRow(product, input, now);
  await skus.insertSku(trx, created);
  return presentSku(created);
}

/**
 * What upsertSku would answer for a SKU of this product, from the same reads and checks
 * alone: nothing is written (a validation's order; its product may be a preview too).
 */
export async function previewSku(db: Db, product: ProductView, input: CreateSkuInput, now: string): Promise<SkuView> {
  const owner: SkuProduct = { id: product.id, attributes: JSON.stringify(product.attributes) };
  const existing = await existingSku(db, owner, input);
  return presentSku(existing ? await updatedRow(db, owner, existing, input, now) : newRow(owner, input, now));
}

/** POST /v1/products/{id}/skus: an `id` or `source_id` of a SKU of this product updates that SKU, as in the reference. */
export async function createSku(deps: CatalogDeps, productKey: string, input: CreateSkuInput): Promise<SkuView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute((trx) => upsertSku(trx, productKey, input, now));
}

/** PUT /v1/products/{id}/skus/{skuId} (ids or source ids). */
export async function updateSku(
  deps: CatalogDeps,
  productKey: string,
  skuKey: string,
  input: UpdateSkuInput,
): Promise<SkuView> {
  const now = isoNow(deps.clock);
  const row = await deps.db.transaction().execute(async (trx) => {
    const product = await requireProduct(trx, productKey);
    return applyUpdate(trx, product, await requireSkuOf(trx, product, skuKey), input, now);
  });
  return presentSku(row);
}

/** GET /v1/skus/{id or source_id}. */
export async function getSku(deps: CatalogDeps, key: string): Promise<SkuView> {
  const row = await skus.findSkuByKey(deps.db, key);
  if (!row) throw notFound('sku', key);
  return presentSku(row);
}

/** GET /v1/products/{id}/skus: the reference's "List SKUs in Product", `data_ref` `skus`. */
export async function listSkus(deps: CatalogDeps, productKey: string, window: ListWindow) {
  const product = await requireProduct(deps.db, productKey);
  const rows = await skus.listSkusOfProduct(deps.db, product.id, window);
  const total = await skus.countSkusOfProduct(deps.db, product.id, window);
  return listEnvelope('skus', rows.map(presentSku), { total });
}

/** DELETE /v1/products/{id}/skus/{skuId}. */
export async function deleteSku(deps: CatalogDeps, productKey: string, skuKey: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const product = await requireProduct(trx, productKey);
    await skus.deleteSku(trx, (await requireSkuOf(trx, product, skuKey)).id);
  });
}
