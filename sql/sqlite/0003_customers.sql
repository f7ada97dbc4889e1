-- Customers (SPEC.md 2.5) with their summary, loyalty and referral blocks, and the customer
-- activity feed (SPEC.md 2.13, 4.12).
--
-- `seq` is the rowid: every secondary index ends with it, so "ORDER BY created_at, seq" is
-- read straight from an index, and rows that share a timestamp keep their insertion order.
-- `id` (cust_...) is the public key, unique. Other tables may reference customers (id).
CREATE TABLE customers (
  seq                         INTEGER PRIMARY KEY,
  id                          TEXT NOT NULL UNIQUE,
  source_id                   TEXT UNIQUE,
  name                        TEXT COLLATE NOCASE,
  description                 TEXT,
  email                       TEXT COLLATE NOCASE,
  phone                       TEXT,
  birthdate                   TEXT,                 -- YYYY-MM-DD
  address                     TEXT,                 -- JSON object of the given address fields, or NULL
  address_city                TEXT COLLATE NOCASE GENERATED ALWAYS AS (json_extract(address, '$.city')) VIRTUAL,
  metadata                    TEXT NOT NULL DEFAULT '{}',
  system_metadata             TEXT NOT NULL DEFAULT '{}',
  -- summary.redemptions
  redemptions_total_redeemed          INTEGER NOT NULL DEFAULT 0 CHECK (redemptions_total_redeemed >= 0),
  redemptions_total_failed            INTEGER NOT NULL DEFAULT 0 CHECK (redemptions_total_failed >= 0),
  redemptions_total_succeeded         INTEGER NOT NULL DEFAULT 0 CHECK (redemptions_total_succeeded >= 0),
  redemptions_total_rolled_back       INTEGER NOT NULL DEFAULT 0 CHECK (redemptions_total_rolled_back >= 0),
  redemptions_total_rollback_failed   INTEGER NOT NULL DEFAULT 0 CHECK (redemptions_total_rollback_failed >= 0),
  redemptions_total_rollback_succeeded INTEGER NOT NULL DEFAULT 0 CHECK (redemptions_total_rollback_succeeded >= 0),
  gift_redeemed_amount        INTEGER NOT NULL DEFAULT 0 CHECK (gift_redeemed_amount >= 0),
  gift_amount_to_go           INTEGER NOT NULL DEFAULT 0 CHECK (gift_amount_to_go >= 0),
  loyalty_card_redeemed_points INTEGER NOT NULL DEFAULT 0 CHECK (loyalty_card_redeemed_points >= 0),
  loyalty_card_points_to_go   INTEGER NOT NULL DEFAULT 0 CHECK (loyalty_card_points_to_go >= 0),
  -- summary.orders (PAID and FULFILLED orders only); average_amount is derived
  orders_total_amount         INTEGER NOT NULL DEFAULT 0 CHECK (orders_total_amount >= 0),
  orders_total_count          INTEGER NOT NULL DEFAULT 0 CHECK (orders_total_count >= 0),
  orders_last_order_amount    INTEGER NOT NULL DEFAULT 0 CHECK (orders_last_order_amount >= 0),
  orders_last_order_date      TEXT,
  -- loyalty (per-campaign figures live in customer_loyalty_campaigns)
  loyalty_points              INTEGER NOT NULL DEFAULT 0 CHECK (loyalty_points >= 0),
  loyalty_referred_customers  INTEGER NOT NULL DEFAULT 0 CHECK (loyalty_referred_customers >= 0),
  created_at                  TEXT NOT NULL,
  updated_at                  TEXT NOT NULL
) STRICT;

-- One index per list filter and order; each ends with seq (the rowid), the tie-breaker.
CREATE INDEX customers_created_at ON customers (created_at);
CREATE INDEX customers_updated_at ON customers (updated_at);
CREATE INDEX customers_email ON customers (email, created_at);
CREATE INDEX customers_name ON customers (name, created_at);
CREATE INDEX customers_city ON customers (address_city, created_at);

-- The exact number of customers, kept by triggers in the same transaction as every insert and
-- delete, so an unfiltered list answers `total` without counting a million rows.
CREATE TABLE customer_counts (
  id     INTEGER PRIMARY KEY CHECK (id = 1),
  total  INTEGER NOT NULL CHECK (total >= 0)
) STRICT;
INSERT INTO customer_counts (id, total) VALUES (1, 0);

CREATE TRIGGER customers_count_insert AFTER INSERT ON customers
BEGIN
  UPDATE customer_counts SET total = total + 1 WHERE id = 1;
END;

CREATE TRIGGER customers_count_delete AFTER DELETE ON customers
BEGIN
  UPDATE customer_counts SET total = total - 1 WHERE id = 1;
END;

-- loyalty.campaigns: one row per customer and campaign (keyed by name in the answer).
CREATE TABLE customer_loyalty_campaigns (
  customer_id         TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  campaign_id         TEXT NOT NULL,
  campaign_name       TEXT NOT NULL,
  points              INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
  referred_customers  INTEGER NOT NULL DEFAULT 0 CHECK (referred_customers >= 0),
  loyalty_tier        TEXT,
  PRIMARY KEY (customer_id, campaign_id)
) STRICT, WITHOUT ROWID;

-- referrals.campaigns: every time this customer was referred.
CREATE TABLE customer_referrals (
  seq                  INTEGER PRIMARY KEY,
  customer_id          TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  campaign_id          TEXT NOT NULL,
  referrer_id          TEXT NOT NULL,
  related_object_id    TEXT NOT NULL,
  related_object_type  TEXT NOT NULL,
  date                 TEXT NOT NULL
) STRICT;
CREATE INDEX customer_referrals_customer ON customer_referrals (customer_id);

-- Customer events (activity). No foreign key to customers: the feed is history and keeps
-- `customer.deleted` and what came before it. `data` is the event's data.data as JSON.
CREATE TABLE customer_events (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  customer_id     TEXT NOT NULL,
  type            TEXT NOT NULL,
  category        TEXT NOT NULL CHECK (category IN ('ACTION', 'EFFECT')),
  campaign_id     TEXT,
  campaign_type   TEXT CHECK (campaign_type IN ('PROMOTION', 'GIFT_VOUCHERS', 'REFERRAL_PROGRAM', 'DISCOUNT_COUPONS', 'LOYALTY_PROGRAM')),
  data            TEXT NOT NULL,
  channel         TEXT NOT NULL CHECK (channel IN ('API', 'CLIENT_API', 'INTERNAL', 'USER_PORTAL')),
  api_key_name    TEXT,
  api_key_app_id  TEXT,
  group_id        TEXT NOT NULL,
  created_at      TEXT NOT NULL
) STRICT;

-- The feed in (created_at, seq) order; the type and campaign filters have their own.
CREATE INDEX customer_events_feed ON customer_events (customer_id, created_at);
CREATE INDEX customer_events_type ON customer_events (customer_id, type, created_at);
CREATE INDEX customer_events_campaign ON customer_events (customer_id, campaign_id, created_at)
  WHERE campaign_id IS NOT NULL;
