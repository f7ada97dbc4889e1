-- Catalog: products, their SKUs, and product collections (SPEC.md 2.2-2.4).

CREATE TABLE products (
  id          TEXT PRIMARY KEY,
  source_id   TEXT UNIQUE,
  name        TEXT UNIQUE,
  price       INTEGER,                      -- minor units
  attributes  TEXT NOT NULL DEFAULT '[]' CHECK (json_type(attributes) = 'array'),
  metadata    TEXT NOT NULL DEFAULT '{}' CHECK (json_type(metadata) = 'object'),
  image_url   TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT
) STRICT;

-- List order and start_date/end_date. Collection filters: a price range reads this index,
-- and metadata conditions are checked on the index entry, so only members cost a row read.
CREATE INDEX products_created_at ON products (created_at, id);
CREATE INDEX products_updated_at ON products (updated_at, created_at, id);
CREATE INDEX products_price ON products (price, metadata);

CREATE TABLE skus (
  id          TEXT PRIMARY KEY,
  product_id  TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  source_id   TEXT UNIQUE,
  sku         TEXT,
  price       INTEGER,
  currency    TEXT,
  attributes  TEXT NOT NULL DEFAULT '{}' CHECK (json_type(attributes) = 'object'),
  image_url   TEXT,
  metadata    TEXT NOT NULL DEFAULT '{}' CHECK (json_type(metadata) = 'object'),
  created_at  TEXT NOT NULL,
  updated_at  TEXT
) STRICT;

-- A product's SKU list (and the cascade from products) in either order; all SKUs by date, by
-- price with metadata (as products_price) and by name, for collection filters.
CREATE INDEX skus_product_created_at ON skus (product_id, created_at, id);
CREATE INDEX skus_product_updated_at ON skus (product_id, updated_at, created_at, id);
CREATE INDEX skus_created_at ON skus (created_at, id);
CREATE INDEX skus_price ON skus (price, metadata);
CREATE INDEX skus_sku ON skus (sku);

CREATE TABLE product_collections (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  type        TEXT NOT NULL CHECK (type IN ('STATIC', 'AUTO_UPDATE')),
  filter      TEXT CHECK (filter IS NULL OR json_type(filter) = 'object'),  -- AUTO_UPDATE only
  created_at  TEXT NOT NULL,
  CHECK ((type = 'AUTO_UPDATE') = (filter IS NOT NULL))
) STRICT;

CREATE INDEX product_collections_created_at ON product_collections (created_at, id);
CREATE INDEX product_collections_type ON product_collections (type, created_at, id);

-- Members of STATIC collections. A deleted product or SKU leaves its collections.
CREATE TABLE product_collection_items (
  collection_id  TEXT NOT NULL REFERENCES product_collections (id) ON DELETE CASCADE,
  position       INTEGER NOT NULL,
  object         TEXT NOT NULL CHECK (object IN ('product', 'sku')),
  product_id     TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  sku_id         TEXT REFERENCES skus (id) ON DELETE CASCADE,
  PRIMARY KEY (collection_id, position),
  CHECK ((object = 'sku') = (sku_id IS NOT NULL))
) STRICT;

CREATE INDEX product_collection_items_product ON product_collection_items (product_id);
CREATE INDEX product_collection_items_sku ON product_collection_items (sku_id);
