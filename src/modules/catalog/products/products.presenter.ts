import { listEnvelope } from '../../../lib/pagination.js';
import type { ProductRow } from './products.repository.js';
import type { SkuRow } from '../skus/skus.repository.js';

/** A product as the API shows it (ProductWithoutSkus), field order as the reference's. */
export interface ProductView {
  id: string;
  source_id: string | null;
  name: string | null;
  price: number | null;
  attributes: string[];
  metadata: Record<string, unknown>;
  image_url: string | null;
  created_at: string;
  updated_at: string | null;
  object: 'product';
}

export interface SkuView {
  id: string;
  source_id: string | null;
  product_id: string;
  sku: string | null;
  price: number | null;
  currency: string | null;
  attributes: Record<string, unknown>;
  image_url: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string | null;
  object: 'sku';
}

export const presentProduct = (row: ProductRow): ProductView => ({
  id: row.id,
  source_id: row.source_id,
  name: row.name,
  price: row.price,
  attributes: JSON.parse(row.attributes) as string[],
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  image_url: row.image_url,
  created_at: row.created_at,
  updated_at: row.updated_at,
  object: 'product',
});

export const presentSku = (row: SkuRow): SkuView => ({
  id: row.id,
  source_id: row.source_id,
  product_id: row.product_id,
  sku: row.sku,
  price: row.price,
  currency: row.currency,
  attributes: JSON.parse(row.attributes) as Record<string, unknown>,
  image_url: row.image_url,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  created_at: row.created_at,
  updated_at: row.updated_at,
  object: 'sku',
});

/** A product with its SKUs embedded as a list (`data_ref` `data`), as GET and the list show it. */
export const presentProductWithSkus = (row: ProductRow, skus: SkuRow[]) => ({
  ...presentProduct(row),
  skus: listEnvelope('data', skus.map(presentSku), { total: skus.length }),
});

/** Embeds each product's SKUs, given every SKU of these products. */
export function presentProductsWithSkus(rows: ProductRow[], skus: SkuRow[]) {
  const byProduct = new Map<string, SkuRow[]>();
  for (const sku of skus) {
    const list = byProduct.get(sku.product_id);
    if (list) list.push(sku);
    else byProduct.set(sku.product_id, [sku]);
  }
  return rows.map((row) => presentProductWithSkus(row, byProduct.get(row.id) ?? []));
}
