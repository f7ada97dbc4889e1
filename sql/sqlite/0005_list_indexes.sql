-- An index for every list order and filter the API accepts (DESIGN.md 3: no request may hold
-- the main thread for long). Each one lets a page be read by walking an index in the order
-- asked, so a deep page costs its offset in index entries, never a sort of the whole set.
-- test/architecture/query-plans.test.ts reads EXPLAIN QUERY PLAN of every list variant.

-- GET /v1/vouchers: `updated_at` and `code` orders, alone and within a campaign (created_at
-- already has vouchers_created_at and vouchers_campaign). Every index ends with seq (the
-- rowid), the tie-breaker of every voucher order.
-- The updated_at indexes cost bulk inserts nearly nothing (a new voucher's NULL goes at one
-- end). vouchers_campaign_code does: codes are random, so generation writes a second random
-- B-tree besides the unique code index (a portion-sized insert loop measured ~33% slower).
-- Without it, a deep page of a campaign in code order sorts the whole campaign (0.85 s for a
-- million vouchers, the whole server waiting).
CREATE INDEX vouchers_updated_at ON vouchers (updated_at);
CREATE INDEX vouchers_campaign_updated_at ON vouchers (campaign_id, updated_at);
CREATE INDEX vouchers_campaign_code ON vouchers (campaign_id, code);

-- GET /v1/customers: each equality filter (email, name, city) in each order (created_at has
-- customers_email, _name and _city). Date-range filters on another field than the order are
-- checked during the ordered walk (see customers-list.repository.ts).
CREATE INDEX customers_email_updated_at ON customers (email, updated_at);
CREATE INDEX customers_email_source_id ON customers (email, source_id);
CREATE INDEX customers_name_updated_at ON customers (name, updated_at);
CREATE INDEX customers_name_source_id ON customers (name, source_id);
CREATE INDEX customers_city_updated_at ON customers (address_city, updated_at);
CREATE INDEX customers_city_source_id ON customers (address_city, source_id);

-- GET /v1/campaigns: the campaign_type filter in either order.
CREATE INDEX campaigns_type_created_at ON campaigns (campaign_type, created_at);
CREATE INDEX campaigns_type_updated_at ON campaigns (campaign_type, updated_at);

-- GET /v1/product-collections/{id}/products of a STATIC collection: each item carries its
-- member's sort keys, so a page is one walk of the collection's items in the order asked
-- instead of a sort of every member. The member's creation date never changes; its
-- updated_at is copied by the triggers below whenever the product or SKU changes.
ALTER TABLE product_collection_items ADD COLUMN member_id TEXT GENERATED ALWAYS AS (coalesce(sku_id, product_id)) VIRTUAL;
ALTER TABLE product_collection_items ADD COLUMN member_created_at TEXT;
ALTER TABLE product_collection_items ADD COLUMN member_updated_at TEXT;

UPDATE product_collection_items SET
  member_created_at = coalesce((SELECT created_at FROM skus WHERE id = sku_id), (SELECT created_at FROM products WHERE id = product_id)),
  member_updated_at = CASE WHEN sku_id IS NULL
    THEN (SELECT updated_at FROM products WHERE id = product_id)
    ELSE (SELECT updated_at FROM skus WHERE id = sku_id) END;

CREATE TRIGGER product_collection_items_member_keys AFTER INSERT ON product_collection_items
BEGIN
  UPDATE product_collection_items SET
    member_created_at = coalesce((SELECT created_at FROM skus WHERE id = NEW.sku_id), (SELECT created_at FROM products WHERE id = NEW.product_id)),
    member_updated_at = CASE WHEN NEW.sku_id IS NULL
      THEN (SELECT updated_at FROM products WHERE id = NEW.product_id)
      ELSE (SELECT updated_at FROM skus WHERE id = NEW.sku_id) END
  WHERE collection_id = NEW.collection_id AND position = NEW.position;
END;

CREATE TRIGGER products_updated_at_of_collection_items AFTER UPDATE OF updated_at ON products
BEGIN
  UPDATE product_collection_items SET member_updated_at = NEW.updated_at WHERE product_id = NEW.id AND sku_id IS NULL;
END;

CREATE TRIGGER skus_updated_at_of_collection_items AFTER UPDATE OF updated_at ON skus
BEGIN
  UPDATE product_collection_items SET member_updated_at = NEW.updated_at WHERE sku_id = NEW.id;
END;

CREATE INDEX product_collection_items_created_at ON product_collection_items (collection_id, member_created_at, member_id);
CREATE INDEX product_collection_items_updated_at ON product_collection_items (collection_id, member_updated_at, member_created_at, member_id);
