import { presentProduct, presentSku, type ProductView, type SkuView } from './products/products.presenter.js';
import * as products from './products/products.repository.js';
import * as skus from './skus/skus.repository.js';
import type { Db } from '../../db/engine.js';

export type { ProductView, SkuView };

/** Products and SKUs named by id or by source id (an order's items name them either way). */
export interface CatalogRefs {
  productIds: string[];
  productSourceIds: string[];
  skuIds: string[];
  skuSourceIds: string[];
}

export interface CatalogEntries {
  products: ProductView[];
  skus: SkuView[];
}

const unique = (values: string[]): string[] => [...new Set(values)];

/** The entries the refs name, read from the database. */
async function readCatalogEntries(db: Db, refs: CatalogRefs): Promise<CatalogEntries> {
  const skuRows = [
    ...(await skus.findSkusByIds(db, unique(refs.skuIds))),
    ...(await skus.findSkusBySourceIds(db, unique(refs.skuSourceIds))),
  ];
  const productRows = [
    ...(await products.findProductsByIds(db, unique([...refs.productIds, ...skuRows.map((sku) => sku.product_id)]))),
    ...(await products.findProductsBySourceIds(db, unique(refs.productSourceIds))),
  ];
  return { products: productRows.map(presentProduct), skus: skuRows.map(presentSku) };
}

/**
 * Catalog entries read inside ONE transaction, for the next lookups of that transaction: the
 * orders of an import portion mostly name the same products. Only rows read from the database
 * go in, and whoever writes a product or SKU in that transaction clears it (clearCatalogCache),
 * so a lookup through it answers what the database holds. It dies with its transaction.
 */
export interface CatalogCache {
  products: Map<string, ProductView>;
  productSources: Map<string, ProductView>;
  skus: Map<string, SkuView>;
  skuSources: Map<string, SkuView>;
}

export const newCatalogCache = (): CatalogCache => ({
  products: new Map(),
  productSources: new Map(),
  skus: new Map(),
  skuSources: new Map(),
});

export function clearCatalogCache(cache: CatalogCache | undefined): void {
  if (!cache) return;
  for (const map of [cache.products, cache.productSources, cache.skus, cache.skuSources]) map.clear();
}

function remember(cache: CatalogCache, entries: CatalogEntries): void {
  for (const p of entries.products) {
    cache.products.set(p.id, p);
    if (p.source_id !== null) cache.productSources.set(p.source_id, p);
  }
  for (const s of entries.skus) {
    cache.skus.set(s.id, s);
    if (s.source_id !== null) cache.skuSources.set(s.source_id, s);
  }
}

function known<T>(map: Map<string, T>, keys: string[]): T[] {
  const found: T[] = [];
  for (const key of keys) {
    const value = map.get(key);
    if (value !== undefined) found.push(value);
  }
  return found;
}

/** The entries the refs name from the cache, reading only what it lacks (a SKU's product comes with it). */
async function cachedCatalogEntries(db: Db, refs: CatalogRefs, cache: CatalogCache): Promise<CatalogEntries> {
  const missing: CatalogRefs = {
    productIds: refs.productIds.filter((id) => !cache.products.has(id)),
    productSourceIds: refs.productSourceIds.filter((sourceId) => !cache.productSources.has(sourceId)),
    skuIds: refs.skuIds.filter((id) => !cache.skus.has(id)),
    skuSourceIds: refs.skuSourceIds.filter((sourceId) => !cache.skuSources.has(sourceId)),
  };
  if (Object.values(missing).some((keys) => keys.length > 0)) remember(cache, await readCatalogEntries(db, missing));
  const skuViews = [...known(cache.skus, refs.skuIds), ...known(cache.skuSources, refs.skuSourceIds)];
  const productViews = [
    ...known(cache.products, [...refs.productIds, ...skuViews.map((sku) => sku.product_id)]),
    ...known(cache.productSources, refs.productSourceIds),
  ];
  return { products: productViews, skus: skuViews };
}

/**
 * The products and SKUs the refs name, and the product of every SKU found, in at most five
 * queries whatever the number of refs (none for what `cache` holds). Unknown refs are simply
 * absent from the answer.
 */
export async function findCatalogEntries(db: Db, refs: CatalogRefs, cache?: CatalogCache): Promise<CatalogEntries> {
  return cache ? cachedCatalogEntries(db, refs, cache) : readCatalogEntries(db, refs);
}

/** Whether the cache holds every entry the refs name (an import portion's orders then create none and miss none). */
export const catalogHolds = (cache: CatalogCache, refs: CatalogRefs): boolean =>
  refs.productIds.every((id) => cache.products.has(id)) &&
  refs.productSourceIds.every((sourceId) => cache.productSources.has(sourceId)) &&
  refs.skuIds.every((id) => cache.skus.has(id)) &&
  refs.skuSourceIds.every((sourceId) => cache.skuSources.has(sourceId));
