import type { CatalogRefs, ProductView, SkuView } from '../catalog/index.js';
import { withoutNulls, type ItemProductBlock, type ItemSkuBlock } from './orders.presenter.js';
import type { OrderItemBody } from './orders.schemas.js';

/* How an order's item names its catalog entries, and what the order shows of them (order-items.service.ts). */

export type ProductInput = NonNullable<OrderItemBody['product']>;
export type SkuInput = NonNullable<OrderItemBody['sku']>;

/** How an item names its product and SKU. */
export interface ItemKeys {
  related: 'product' | 'sku';
  productId?: string;
  productSourceId?: string;
  skuId?: string;
  skuSourceId?: string;
}

export function keysOf(item: OrderItemBody): ItemKeys {
  const skuId = item.sku_id ?? item.sku?.id ?? undefined;
  const related = item.related_object ?? (skuId !== undefined || item.sku ? 'sku' : 'product');
  const sourceId = item.source_id ?? undefined;
  const productSourceId = related === 'product' ? (sourceId ?? item.product?.source_id) : item.product?.source_id;
  return {
    related,
    productId: item.product_id ?? item.product?.id ?? undefined,
    productSourceId: productSourceId ?? undefined,
    skuId,
    skuSourceId: (related === 'sku' ? (sourceId ?? item.sku?.source_id) : undefined) ?? undefined,
  };
}

export function refsOf(keys: ItemKeys[]): CatalogRefs {
  const defined = (values: Array<string | undefined>) => values.filter((v): v is string => v !== undefined);
  return {
    productIds: defined(keys.map((k) => k.productId)),
    productSourceIds: defined(keys.map((k) => k.productSourceId)),
    skuIds: defined(keys.map((k) => k.skuId)),
    skuSourceIds: defined(keys.map((k) => k.skuSourceId)),
  };
}

export const productFields = (block: ProductInput | null | undefined) =>
  withoutNulls({ name: block?.name, price: block?.price, metadata: block?.metadata });
export const skuFields = (block: SkuInput | null | undefined) =>
  withoutNulls({ sku: block?.sku, price: block?.price, metadata: block?.metadata });

/** A block that only names its entry (id, source_id) carries no data to create it from. */
export const hasData = (fields: object): boolean => Object.keys(fields).length > 0;

/** The fields of `wanted` whose value differs from `current`'s. */
export function differing<T extends Record<string, unknown>>(wanted: T, current: object): Partial<T> {
  const now = current as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(wanted).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(now[k])),
  ) as Partial<T>;
}

/** A block as sent, for an item without a catalog entry; null when it holds nothing to show (only `override`). */
function sentBlock<T extends object>(fields: T): T | null {
  return Object.keys(fields).length > 0 ? fields : null;
}

/** What the order shows of its product: the catalog's values, with the block's for this order. */
export function productBlock(
  product: ProductView | undefined,
  block: ProductInput | null | undefined,
): ItemProductBlock | null {
  if (!product)
    return block
      ? sentBlock(withoutNulls({ id: block.id, source_id: block.source_id, ...productFields(block) }))
      : null;
  const { id, source_id, name, metadata, price } = product;
  return withoutNulls({ id, source_id, name, metadata, price, ...productFields(block) });
}

export function skuBlock(sku: SkuView | undefined, block: SkuInput | null | undefined): ItemSkuBlock | null {
  if (!sku)
    return block ? sentBlock(withoutNulls({ id: block.id, source_id: block.source_id, ...skuFields(block) })) : null;
  const { id, source_id, metadata, price } = sku;
  return withoutNulls({ id, source_id, sku: sku.sku, metadata, price, ...skuFields(block) });
}
