import type { Generated, GeneratedAlways } from 'kysely';

export interface ProductTable {
  id: string;
  source_id: string | null;
  name: string | null;
  /** Minor units (x100). */
  price: number | null;
  /** JSON array of attribute names. */
  attributes: string;
  /** JSON object. */
  metadata: string;
  image_url: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface SkuTable {
  id: string;
  product_id: string;
  source_id: string | null;
  sku: string | null;
  price: number | null;
  currency: string | null;
  /** JSON object: attribute name (declared by the product) to value. */
  attributes: string;
  image_url: string | null;
  /** JSON object. */
  metadata: string;
  created_at: string;
  updated_at: string | null;
}

export interface ProductCollectionTable {
  id: string;
  name: string;
  type: 'STATIC' | 'AUTO_UPDATE';
  /** JSON filter object, AUTO_UPDATE only. */
  filter: string | null;
  created_at: string;
}

/** The chosen members of a STATIC collection, in the order given. */
export interface ProductCollectionItemTable {
  collection_id: string;
  position: number;
  object: 'product' | 'sku';
  /** The product, or the SKU's product. */
  product_id: string;
  sku_id: string | null;
  /** The member's own id (the SKU's, else the product's); generated (sql/0005). */
  member_id: GeneratedAlways<string>;
  /** The member's created_at and updated_at, kept by triggers (sql/0005): a page's sort keys. */
  member_created_at: Generated<string | null>;
  member_updated_at: Generated<string | null>;
}

export interface CatalogTables {
  products: ProductTable;
  skus: SkuTable;
  product_collections: ProductCollectionTable;
  product_collection_items: ProductCollectionItemTable;
}
