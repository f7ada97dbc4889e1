import { fieldCatalog } from '../../../engine/conditions/index.js';
import type { ProductRow } from '../products/products.repository.js';
import type { SkuRow } from '../skus/skus.repository.js';

/** The fields an AUTO_UPDATE collection's filter may name (the reference's "Create Product Collection" `filter`), and what each holds. */
export const COLLECTION_FIELDS = fieldCatalog(
  {
    id: 'string',
    product_id: 'string',
    source_id: 'string',
    name: 'string',
    price: 'number',
    object: 'string',
    attributes: 'string_array',
    image_url: 'string',
    skus: 'string_array',
    created_at: 'date',
    updated_at: 'date',
  },
  { 'metadata.': 'any' },
);

/** A product (with its SKU ids) or a SKU, as a collection filter sees it. */
export type CatalogItem = { object: 'product'; row: ProductRow; skuIds: string[] } | { object: 'sku'; row: SkuRow };

function metadataValue(json: string, key: string): unknown {
  const metadata = JSON.parse(json) as Record<string, unknown>;
  return Object.hasOwn(metadata, key) ? metadata[key] : undefined;
}

/**
 * A field of a product or SKU for the condition evaluator. The SQL translation
 * (collection-sources.repository.ts) reads the same fields the same way.
 */
export function catalogValue(item: CatalogItem, field: string): unknown {
  const { row } = item;
  if (field.startsWith('metadata.')) return metadataValue(row.metadata, field.slice('metadata.'.length));
  switch (field) {
    case 'object':
      return item.object;
    case 'name':
      return item.object === 'product' ? item.row.name : item.row.sku;
    case 'product_id':
      return item.object === 'product' ? item.row.id : item.row.product_id;
    case 'attributes':
      return item.object === 'product'
        ? (JSON.parse(item.row.attributes) as string[])
        : Object.keys(JSON.parse(item.row.attributes) as object);
    case 'skus':
      return item.object === 'product' ? item.skuIds : undefined;
    case 'id':
    case 'source_id':
    case 'price':
    case 'image_url':
    case 'created_at':
    case 'updated_at':
      return row[field];
    default:
      return undefined;
  }
}
