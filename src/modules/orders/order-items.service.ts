import { invalidPayload } from '../../lib/errors.js';
import {
  catalogHolds,
  clearCatalogCache,
  findCatalogEntries,
  type CatalogCache,
  type CatalogEntries,
  type ProductView,
  type SkuView,
} from '../catalog/index.js';
import type { CatalogUpserts } from './catalog-upserts.service.js';
import type { ItemProductBlock, ItemSkuBlock } from './orders.presenter.js';
import type { OrderItemBody } from './orders.schemas.js';
import {
  type ProductInput,
  type SkuInput,
  type ItemKeys,
  keysOf,
  refsOf,
  productFields,
  skuFields,
  hasData,
  differing,
  productBlock,
  skuBlock,
} from './order-items.rules.js';
import type { Db, Tx } from '../../db/engine.js';

/**
 * An order's items against the catalog. An item names its product or SKU by `product_id` /
 * `sku_id` or by `source_id` with `related_object` (default `product`, or `sku` when the item
 * carries SKU fields). As in the reference (create-order, validate-stacked-discounts), an item
 * whose product or SKU the catalog does not know (never created, or deleted) is kept as sent,
 * with no catalog link: its ids stay as given, its blocks describe it for this order only.
 * Only `override: true` writes the catalog: an unknown source id is created from the block (a
 * new SKU's product comes from the item's `product` block, found or created the same way), a
 * known one gets the block's name (or sku), price and metadata, as the reference defines it.
 */

export interface ResolvedItem {
  body: OrderItemBody;
  product: ItemProductBlock | null;
  sku: ItemSkuBlock | null;
  productId: string | null;
  skuId: string | null;
  /** The sent price, else the SKU's, else the product's (as this order shows them). */
  price: number | null;
}

/** The catalog entries an order has seen so far, by id and by source id (read as maps: no closures per order). */
class ItemCatalog {
  readonly products = new Map<string, ProductView>();
  readonly skus = new Map<string, SkuView>();
  readonly productSources = new Map<string, ProductView>();
  readonly skuSources = new Map<string, SkuView>();

  constructor(entries: CatalogEntries) {
    entries.products.forEach((p) => this.addProduct(p));
    entries.skus.forEach((s) => this.addSku(s));
  }

  addProduct(p: ProductView): ProductView {
    this.products.set(p.id, p);
    if (p.source_id !== null) this.productSources.set(p.source_id, p);
    return p;
  }

  addSku(s: SkuView): SkuView {
    this.skus.set(s.id, s);
    if (s.source_id !== null) this.skuSources.set(s.source_id, s);
    return s;
  }
}

interface Resolver<D extends Db> {
  trx: D;
  catalog: ItemCatalog;
  now: string;
  upserts: CatalogUpserts<D>;
  /** The transaction's cache of catalog reads, if its caller keeps one (an import portion). */
  shared?: CatalogCache;
}

/**
 * The order's catalog, for an entry this order is about to write: the transaction's cache is
 * cleared first (it holds only what the database held before any write of the transaction).
 */
const writing = <D extends Db>(r: Resolver<D>): ItemCatalog => {
  clearCatalogCache(r.shared);
  return r.catalog;
};

/** `override: true`: the block's values replace the catalog's (only those that differ are written). */
async function overrideProduct<D extends Db>(
  r: Resolver<D>,
  product: ProductView,
  block: ProductInput | null | undefined,
): Promise<ProductView> {
  if (block?.override !== true) return product;
  const changes = differing(productFields(block), product);
  if (Object.keys(changes).length === 0) return product;
  return writing(r).addProduct(await r.upserts.product(r.trx, { id: product.id, ...changes }, r.now));
}

async function overrideSku<D extends Db>(
  r: Resolver<D>,
  sku: SkuView,
  block: SkuInput | null | undefined,
): Promise<SkuView> {
  if (block?.override !== true) return sku;
  const changes = differing(skuFields(block), sku);
  if (Object.keys(changes).length === 0) return sku;
  return writing(r).addSku(
    await r.upserts.sku(
      r.trx,
      r.catalog.products.get(sku.product_id) as ProductView,
      { id: sku.id, ...changes },
      r.now,
    ),
  );
}

/** A block asks for its catalog entry to be created or replaced only with `override: true`. */
const overrides = (block: ProductInput | SkuInput | null | undefined, fields: object): boolean =>
  block?.override === true && hasData(fields);

/**
 * The catalog product an item names by id or source id; undefined when it names none or one
 * the catalog does not know (the item keeps no link), unless `override: true` creates it.
 */
async function findOrCreateProduct<D extends Db>(
  r: Resolver<D>,
  keys: ItemKeys,
  block: ProductInput | null | undefined,
): Promise<ProductView | undefined> {
  if (keys.productId !== undefined) return r.catalog.products.get(keys.productId);
  if (keys.productSourceId === undefined) return undefined;
  const known = r.catalog.productSources.get(keys.productSourceId);
  if (known) return overrideProduct(r, known, block);
  const fields = productFields(block);
  if (!overrides(block, fields)) return undefined;
  return writing(r).addProduct(await r.upserts.product(r.trx, { source_id: keys.productSourceId, ...fields }, r.now));
}

/** A SKU the catalog does not know, created (`override: true`) from the item's `sku` block under the item's product. */
async function createSku<D extends Db>(
  r: Resolver<D>,
  item: OrderItemBody,
  keys: ItemKeys & { skuSourceId: string },
  label: string,
): Promise<SkuView | undefined> {
  const fields = skuFields(item.sku);
  if (!overrides(item.sku, fields)) return undefined;
  const product = await findOrCreateProduct(r, keys, item.product);
  if (!product)
    throw invalidPayload(
      `${label}: a new SKU (source_id ${keys.skuSourceId}) needs its product: product_id or product.source_id`,
    );
  return writing(r).addSku(await r.upserts.sku(r.trx, product, { source_id: keys.skuSourceId, ...fields }, r.now));
}

/** The SKU an item names (by sku_id, or by source_id when related_object is sku) and its product; undefined when it names none. */
async function resolveSku<D extends Db>(
  r: Resolver<D>,
  item: OrderItemBody,
  keys: ItemKeys,
  label: string,
): Promise<{ sku: SkuView; product: ProductView } | undefined> {
  const { skuId, skuSourceId } = keys;
  let sku: SkuView | undefined;
  if (skuId !== undefined) sku = r.catalog.skus.get(skuId);
  else if (skuSourceId !== undefined) {
    const known = r.catalog.skuSources.get(skuSourceId);
    sku = known ? await overrideSku(r, known, item.sku) : await createSku(r, item, { ...keys, skuSourceId }, label);
  }
  if (sku === undefined) return undefined;
  if (keys.productId !== undefined && keys.productId !== sku.product_id) {
    throw invalidPayload(
      `${label}.product_id: SKU ${sku.id} belongs to product ${sku.product_id}, not ${keys.productId}`,
    );
  }
  const product = r.catalog.products.get(sku.product_id) as ProductView;
  return { sku, product: await overrideProduct(r, product, item.product) };
}

async function resolveItem<D extends Db>(r: Resolver<D>, item: OrderItemBody, label: string): Promise<ResolvedItem> {
  const keys = keysOf(item);
  const found = await resolveSku(r, item, keys, label);
  const product = found?.product ?? (await findOrCreateProduct(r, keys, item.product));
  const sku = skuBlock(found?.sku, item.sku);
  const shown = productBlock(product, item.product);
  return {
    body: item,
    product: shown,
    sku,
    // An item without a catalog link keeps the ids it was sent with.
    productId: product?.id ?? keys.productId ?? null,
    skuId: found?.sku.id ?? keys.skuId ?? null,
    price: item.price ?? sku?.price ?? shown?.price ?? null,
  };
}

/**
 * Resolves every item in order (an item may use a product an earlier one created). `shared`:
 * the transaction's cache of catalog reads (catalog-lookup.service.ts), kept by an import portion.
 */
export async function resolveItems<D extends Db>(
  trx: D,
  items: OrderItemBody[],
  now: string,
  upserts: CatalogUpserts<D>,
  shared?: CatalogCache,
): Promise<ResolvedItem[]> {
  const keys = items.map(keysOf);
  const r: Resolver<D> = {
    trx,
    catalog: new ItemCatalog(await findCatalogEntries(trx, refsOf(keys), shared)),
    now,
    upserts,
    shared,
  };
  const resolved: ResolvedItem[] = [];
  for (const [i, item] of items.entries()) resolved.push(await resolveItem(r, item, `items[${i}]`));
  return resolved;
}

/**
 * Reads into `shared` every catalog entry these items name, in a few queries: an import
 * portion does it for the items of all its orders before the first of them, so each order
 * finds its products there instead of querying for them. True when it found them all (the
 * orders will create no catalog entry and name none that is missing).
 */
export async function prefetchCatalog(trx: Tx, items: OrderItemBody[], shared: CatalogCache): Promise<boolean> {
  const refs = refsOf(items.map(keysOf));
  await findCatalogEntries(trx, refs, shared);
  return catalogHolds(shared, refs);
}
