import type { ProductRow } from '../products/products.repository.js';
import { presentProduct, presentSku, type ProductView, type SkuView } from '../products/products.presenter.js';
import type { CollectionItemRow, CollectionRow } from './product-collections.repository.js';
import type { SkuRow } from '../skus/skus.repository.js';

export type StaticMemberView = { id: string; object: 'product' } | { id: string; product_id: string; object: 'sku' };

export interface CollectionView {
  id: string;
  name: string;
  type: 'STATIC' | 'AUTO_UPDATE';
  filter?: Record<string, unknown>;
  products?: StaticMemberView[];
  created_at: string;
  object: 'products_collection';
}

const presentMember = (item: CollectionItemRow): StaticMemberView =>
  item.object === 'sku' && item.sku_id !== null
    ? { id: item.sku_id, product_id: item.product_id, object: 'sku' }
    : { id: item.product_id, object: 'product' };

/** A collection: its filter (AUTO_UPDATE) or its chosen products and SKUs (STATIC). */
export function presentCollection(row: CollectionRow, items: CollectionItemRow[]): CollectionView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ...(row.type === 'AUTO_UPDATE'
      ? { filter: JSON.parse(row.filter ?? '{}') as Record<string, unknown> }
      : { products: items.map(presentMember) }),
    created_at: row.created_at,
    object: 'products_collection',
  };
}

/** The parent product as a SKU in a collection listing carries it. */
const presentParent = (row: ProductRow) => {
  const { id, source_id, name, price, attributes, metadata } = presentProduct(row);
  return { id, source_id, name, price, attributes, metadata, object: 'product' as const };
};

export type MemberView = ProductView | (SkuView & { product: ReturnType<typeof presentParent> });

export const presentProductMember = (row: ProductRow): MemberView => presentProduct(row);

export const presentSkuMember = (row: SkuRow, parent: ProductRow): MemberView => ({
  ...presentSku(row),
  product: presentParent(parent),
});
