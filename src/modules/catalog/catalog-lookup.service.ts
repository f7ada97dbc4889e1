import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { presentProduct, presentSku, type ProductView, type SkuView } from './products.presenter.js';
import * as products from './products.repository.js';
import * as skus from './skus.repository.js';

export type { ProductView, SkuView };

type Db = Kysely<Database>;

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

/**
 * The products and SKUs the refs name, and the product of every SKU found, in at most five
 * queries whatever the number of refs. Unknown refs are simply absent from the answer.
 */
export async function findCatalogEntries(db: Db, refs: CatalogRefs): Promise<CatalogEntries> {
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
