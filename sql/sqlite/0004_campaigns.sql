-- Campaigns, their vouchers and promotion tiers, categories, and async actions (bulk jobs).
--
-- JSON objects are TEXT; booleans are INTEGER 0/1; times are ISO 8601 UTC strings with ms.
-- `seq` is the rowid where a table has one: secondary indexes end with it, so rows that share
-- a timestamp keep their insertion order, and bulk jobs can walk a table by it.

-- Categories, created on demand from a `category` name (or referenced by `category_id`).
CREATE TABLE categories (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  hierarchy   INTEGER NOT NULL DEFAULT 0 CHECK (hierarchy >= 0),
  created_at  TEXT NOT NULL,
  updated_at  TEXT
) STRICT;

CREATE TABLE campaigns (
  seq                          INTEGER PRIMARY KEY,
  id                           TEXT NOT NULL UNIQUE,
  name                         TEXT NOT NULL,
  description                  TEXT,
  campaign_type                TEXT NOT NULL CHECK (campaign_type IN
                                 ('DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM', 'PROMOTION', 'REFERRAL_PROGRAM')),
  type                         TEXT NOT NULL CHECK (type IN ('AUTO_UPDATE', 'STATIC', 'STANDALONE')),
  voucher                      TEXT,            -- JSON voucher template; NULL for PROMOTION
  referral_program             TEXT,            -- JSON; REFERRAL_PROGRAM only
  auto_join                    INTEGER NOT NULL DEFAULT 0 CHECK (auto_join IN (0, 1)),
  join_once                    INTEGER NOT NULL DEFAULT 0 CHECK (join_once IN (0, 1)),
  use_voucher_metadata_schema  INTEGER NOT NULL DEFAULT 0 CHECK (use_voucher_metadata_schema IN (0, 1)),
  start_date                   TEXT,
  expiration_date              TEXT,
  validity_timeframe           TEXT,            -- JSON {duration, interval}
  validity_day_of_week         TEXT,            -- JSON array of 0..6
  validity_hours               TEXT,            -- JSON {daily: [...]}
  activity_duration_after_publishing TEXT,
  vouchers_count               INTEGER NOT NULL DEFAULT 0 CHECK (vouchers_count >= 0),
  active                       INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  metadata                     TEXT NOT NULL DEFAULT '{}',
  category_id                  TEXT REFERENCES categories (id),
  creation_status              TEXT NOT NULL CHECK (creation_status IN ('DONE', 'IN_PROGRESS', 'FAILED', 'DRAFT', 'MODIFYING')),
  vouchers_generation_status   TEXT NOT NULL CHECK (vouchers_generation_status IN ('DONE', 'IN_PROGRESS', 'FAILED', 'DRAFT', 'MODIFYING')),
  protected                    INTEGER NOT NULL DEFAULT 0 CHECK (protected IN (0, 1)),
  created_at                   TEXT NOT NULL,
  updated_at                   TEXT,
  -- A deleted campaign disappears at once; a CAMPAIGN.VOUCHERS_DELETE job removes its vouchers
  -- in portions and then the row.
  deleted_at                   TEXT
) STRICT;

-- A name is unique among live campaigns; a deleted campaign's name is free again at once.
CREATE UNIQUE INDEX campaigns_name ON campaigns (name) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_created_at ON campaigns (created_at);
CREATE INDEX campaigns_updated_at ON campaigns (updated_at);

CREATE TABLE promotion_tiers (
  seq                   INTEGER PRIMARY KEY,
  id                    TEXT NOT NULL UNIQUE,
  campaign_id           TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  name                  TEXT NOT NULL,
  banner                TEXT,
  action                TEXT NOT NULL,        -- JSON {discount}
  metadata              TEXT NOT NULL DEFAULT '{}',
  hierarchy             INTEGER NOT NULL,
  active                INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  start_date            TEXT,
  expiration_date       TEXT,
  validity_timeframe    TEXT,
  validity_day_of_week  TEXT,
  validity_hours        TEXT,
  category_id           TEXT REFERENCES categories (id),
  created_at            TEXT NOT NULL,
  updated_at            TEXT
) STRICT;

CREATE INDEX promotion_tiers_campaign ON promotion_tiers (campaign_id, hierarchy);

-- Vouchers: discount vouchers, gift cards and loyalty cards. Codes are unique in the whole
-- database. Counters and balances carry CHECKs, so a guarded UPDATE can never overdraw them.
CREATE TABLE vouchers (
  seq                             INTEGER PRIMARY KEY,
  id                              TEXT NOT NULL UNIQUE,
  code                            TEXT NOT NULL UNIQUE,
  campaign_id                     TEXT REFERENCES campaigns (id) ON DELETE CASCADE,
  category_id                     TEXT REFERENCES categories (id),
  type                            TEXT NOT NULL CHECK (type IN ('DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD')),
  discount                        TEXT,       -- JSON; DISCOUNT_VOUCHER only
  gift_amount                     INTEGER,    -- GIFT_VOUCHER only
  gift_subtracted_amount          INTEGER CHECK (gift_subtracted_amount IS NULL OR gift_subtracted_amount >= 0),
  gift_balance                    INTEGER CHECK (gift_balance IS NULL OR gift_balance >= 0),
  gift_effect                     TEXT,
  loyalty_points                  INTEGER,    -- LOYALTY_CARD only
  loyalty_balance                 INTEGER CHECK (loyalty_balance IS NULL OR loyalty_balance >= 0),
  loyalty_next_expiration_date    TEXT,
  loyalty_next_expiration_points  INTEGER,
  loyalty_pending_points          INTEGER CHECK (loyalty_pending_points IS NULL OR loyalty_pending_points >= 0),
  loyalty_expired_points          INTEGER CHECK (loyalty_expired_points IS NULL OR loyalty_expired_points >= 0),
  loyalty_subtracted_points       INTEGER CHECK (loyalty_subtracted_points IS NULL OR loyalty_subtracted_points >= 0),
  start_date                      TEXT,
  expiration_date                 TEXT,
  validity_timeframe              TEXT,
  validity_day_of_week            TEXT,
  validity_hours                  TEXT,
  active                          INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  additional_info                 TEXT,
  metadata                        TEXT NOT NULL DEFAULT '{}',
  is_referral_code                INTEGER NOT NULL DEFAULT 0 CHECK (is_referral_code IN (0, 1)),
  holder_id                       TEXT,
  referrer_id                     TEXT,
  redemption_quantity             INTEGER CHECK (redemption_quantity IS NULL OR redemption_quantity >= 0),
  redeemed_quantity               INTEGER NOT NULL DEFAULT 0 CHECK (redeemed_quantity >= 0),
  redeemed_points                 INTEGER NOT NULL DEFAULT 0 CHECK (redeemed_points >= 0),
  publish_count                   INTEGER NOT NULL DEFAULT 0 CHECK (publish_count >= 0),
  created_at                      TEXT NOT NULL,
  updated_at                      TEXT,
  CHECK (redemption_quantity IS NULL OR redeemed_quantity <= redemption_quantity)
) STRICT;

CREATE INDEX vouchers_campaign ON vouchers (campaign_id, created_at);
CREATE INDEX vouchers_created_at ON vouchers (created_at);

-- Async actions: bulk jobs. The API writes the row and its payload in one transaction and
-- only then answers. A runner claims a job with a lease (owner + expiry, ms since the epoch);
-- a worker writes one portion of work and advances `cursor` in one transaction, guarded by the
-- lease and the cursor it read, so a resumed job neither skips nor repeats.
CREATE TABLE async_actions (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  type              TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('ENQUEUED', 'IN_PROGRESS', 'DONE', 'FAILED')),
  operation_status  TEXT CHECK (operation_status IS NULL OR operation_status IN ('SUCCESS', 'FAILED', 'UNKNOWN')),
  request_id        TEXT,
  payload           TEXT NOT NULL DEFAULT '{}',   -- JSON: the job's input
  total             INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
  cursor            INTEGER NOT NULL DEFAULT 0 CHECK (cursor >= 0),
  done_count        INTEGER NOT NULL DEFAULT 0 CHECK (done_count >= 0),
  failed_count      INTEGER NOT NULL DEFAULT 0 CHECK (failed_count >= 0),
  result            TEXT,                         -- JSON, set when the job ends
  -- 0 while `promo import` is still streaming items in; a runner claims only sealed jobs.
  sealed            INTEGER NOT NULL DEFAULT 1 CHECK (sealed IN (0, 1)),
  lease_owner       TEXT,
  lease_expires_at  INTEGER,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  started_at        TEXT,
  finished_at       TEXT
) STRICT;

CREATE INDEX async_actions_created_at ON async_actions (created_at);
CREATE INDEX async_actions_open ON async_actions (created_at) WHERE status IN ('ENQUEUED', 'IN_PROGRESS');

-- The items of an import job, in order. A portion deletes the items it processed.
CREATE TABLE async_action_items (
  action_id  TEXT NOT NULL REFERENCES async_actions (id),
  position   INTEGER NOT NULL,
  body       TEXT NOT NULL,
  PRIMARY KEY (action_id, position)
) STRICT, WITHOUT ROWID;

-- What failed in a job, item by item: `key` is the voucher code (or an order's source_id).
CREATE TABLE async_action_failures (
  action_id  TEXT NOT NULL REFERENCES async_actions (id),
  position   INTEGER NOT NULL,
  key        TEXT,
  reason     TEXT NOT NULL,
  PRIMARY KEY (action_id, position)
) STRICT, WITHOUT ROWID;
