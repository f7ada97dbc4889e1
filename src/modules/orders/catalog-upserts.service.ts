import type { Db, Tx } from '../../db/engine.js';
import {
  previewProduct,
  previewSku,
  upsertProduct,
  upsertSku,
  type CreateProductInput,
  type CreateSkuInput,
  type ProductView,
  type SkuView,
} from '../catalog/index.js';

/**
 * How an order's new and overridden catalog entries come to be: written in the caller's
 * transaction (an order stored), or previewed from the same reads and checks (a validation's
 * order, which writes nothing).
 */
export interface CatalogUpserts<D extends Db> {
  product: (db: D, input: CreateProductInput, now: string) => Promise<ProductView>;
  sku: (db: D, product: ProductView, input: CreateSkuInput, now: string) => Promise<SkuView>;
}

export const STORE_CATALOG: CatalogUpserts<Tx> = {
  product: upsertProduct,
  sku: (db, product, input, now) => upsertSku(db, product.id, input, now),
};
export const PREVIEW_CATALOG: CatalogUpserts<Db> = { product: previewProduct, sku: previewSku };
