-- Orders (SPEC.md 2.11) and their items.
--
-- `seq` is the rowid: every secondary index ends with it, so "ORDER BY created_at, seq" is
-- read straight from an index, and orders that share a timestamp keep their insertion order.
-- `id` (ord_...) is the public key.
CREATE TABLE orders (
  seq                    INTEGER PRIMARY KEY,
  id                     TEXT NOT NULL UNIQUE,
  source_id              TEXT UNIQUE,
  status                 TEXT NOT NULL CHECK (status IN ('CREATED', 'PAID', 'CANCELED', 'FULFILLED')),
  -- Minor units. amount is the sent amount or the sum of the items' amounts; initial_amount
  -- is kept only as sent (answers leave it out otherwise, as the reference's do).
  amount                 INTEGER NOT NULL CHECK (amount >= 0),
  initial_amount         INTEGER CHECK (initial_amount >= 0),
  discount_amount        INTEGER NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
  items_discount_amount  INTEGER NOT NULL DEFAULT 0 CHECK (items_discount_amount >= 0),
  total_amount           INTEGER GENERATED ALWAYS AS (amount - discount_amount - items_discount_amount) VIRTUAL,
  metadata               TEXT NOT NULL DEFAULT '{}' CHECK (json_type(metadata) = 'object'),
  customer_id            TEXT REFERENCES customers (id),
  referrer_id            TEXT REFERENCES customers (id),
  -- Keyed by redemption id (OrderRedemptionsEntry); written by redemptions.
  redemptions            TEXT NOT NULL DEFAULT '{}' CHECK (json_type(redemptions) = 'object'),
  -- When the order first became PAID: the paid-order seam fires only for the statement that
  -- sets it (UPDATE ... WHERE paid_at IS NULL), so once per order whatever is re-sent.
  paid_at                TEXT,
  created_at             TEXT NOT NULL,
  updated_at             TEXT,
  CHECK (discount_amount + items_discount_amount <= amount)
) STRICT;

-- One index per list order and filter (customer, status, both), each ending with seq. The
-- customer ones also serve the foreign key check when a customer is deleted, and the
-- customer and status one finds a customer's latest counted order.
CREATE INDEX orders_created_at ON orders (created_at);
CREATE INDEX orders_updated_at ON orders (updated_at);
CREATE INDEX orders_customer_created_at ON orders (customer_id, created_at);
CREATE INDEX orders_customer_updated_at ON orders (customer_id, updated_at);
CREATE INDEX orders_status_created_at ON orders (status, created_at);
CREATE INDEX orders_status_updated_at ON orders (status, updated_at);
CREATE INDEX orders_customer_status_created_at ON orders (customer_id, status, created_at);
CREATE INDEX orders_customer_status_updated_at ON orders (customer_id, status, updated_at);
CREATE INDEX orders_referrer ON orders (referrer_id) WHERE referrer_id IS NOT NULL;

-- The exact number of orders per status, kept by triggers in the same transaction as every
-- change, so the list's `total` (unfiltered or by status) costs no count of a million rows.
CREATE TABLE order_counts (
  status  TEXT PRIMARY KEY CHECK (status IN ('CREATED', 'PAID', 'CANCELED', 'FULFILLED')),
  total   INTEGER NOT NULL CHECK (total >= 0)
) STRICT, WITHOUT ROWID;
INSERT INTO order_counts (status, total) VALUES ('CREATED', 0), ('PAID', 0), ('CANCELED', 0), ('FULFILLED', 0);

CREATE TRIGGER orders_count_insert AFTER INSERT ON orders
BEGIN
  UPDATE order_counts SET total = total + 1 WHERE status = NEW.status;
END;

CREATE TRIGGER orders_count_delete AFTER DELETE ON orders
BEGIN
  UPDATE order_counts SET total = total - 1 WHERE status = OLD.status;
END;

CREATE TRIGGER orders_count_status AFTER UPDATE OF status ON orders WHEN NEW.status <> OLD.status
BEGIN
  UPDATE order_counts SET total = total - 1 WHERE status = OLD.status;
  UPDATE order_counts SET total = total + 1 WHERE status = NEW.status;
END;

-- An order's items in the order given. Product and SKU ids are kept as history, without a
-- foreign key: deleting a product does not rewrite the orders that sold it. `product`, `sku`
-- and `metadata` are the item's JSON blocks as the order shows them (NULL when absent).
CREATE TABLE order_items (
  order_id           TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position           INTEGER NOT NULL,
  id                 TEXT NOT NULL,
  source_id          TEXT,
  related_object     TEXT CHECK (related_object IN ('product', 'sku')),
  product_id         TEXT,
  sku_id             TEXT,
  quantity           INTEGER CHECK (quantity >= 1),
  discount_quantity  INTEGER CHECK (discount_quantity >= 0),
  initial_quantity   INTEGER CHECK (initial_quantity >= 1),
  amount             INTEGER CHECK (amount >= 0),
  discount_amount    INTEGER NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
  initial_amount     INTEGER CHECK (initial_amount >= 0),
  price              INTEGER CHECK (price >= 0),
  product            TEXT CHECK (product IS NULL OR json_type(product) = 'object'),
  sku                TEXT CHECK (sku IS NULL OR json_type(sku) = 'object'),
  metadata           TEXT CHECK (metadata IS NULL OR json_type(metadata) = 'object'),
  PRIMARY KEY (order_id, position),
  CHECK (amount IS NULL OR discount_amount <= amount)
) STRICT, WITHOUT ROWID;
