-- Publications (issue 14 point 4; the reference's /v1/publications): a voucher given to a
-- customer, one row per attempt, successful or failed.
--
-- A row keeps what the list filters and orders by as plain columns, each with an index that
-- ends with created_at (and the rowid), so every order and filter the list accepts is one
-- range scan, as the redemptions list does (0015). The customer is not copied: the list reads
-- the customer's row when it presents a page, so personal data lives in one place. Only
-- tracking_id (the customer's source_id at the time, often an email) is kept, and
-- permanent deletion clears it. No foreign keys: a publication is history.
--
-- Sizes: metadata is the request's (bounded by the body limit and the JSON depth limit);
-- channel and source_id are bounded by the request schema.
CREATE TABLE publications (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  created_at        TEXT NOT NULL,
  customer_id       TEXT NOT NULL,
  tracking_id       TEXT,
  metadata          TEXT NOT NULL DEFAULT '{}' CHECK (json_type(metadata) = 'object'),
  channel           TEXT NOT NULL,
  source_id         TEXT,
  result            TEXT NOT NULL CHECK (result IN ('SUCCESS', 'FAILURE')),
  failure_code      TEXT,
  failure_message   TEXT,
  voucher_id        TEXT,
  voucher_code      TEXT,
  campaign_id       TEXT,
  campaign_name     TEXT,
  -- The voucher's type (DISCOUNT_VOUCHER, GIFT_VOUCHER, LOYALTY_CARD) when it was given.
  voucher_type      TEXT,
  is_referral_code  INTEGER NOT NULL DEFAULT 0 CHECK (is_referral_code IN (0, 1)),
  -- The list's `voucher` as it was given (code, campaign, its discount, gift or loyalty_card
  -- block): built by the service from the voucher's row, no personal data.
  voucher_snapshot  TEXT CHECK (voucher_snapshot IS NULL OR json_type(voucher_snapshot) = 'object'),
  CHECK ((result = 'SUCCESS') = (voucher_id IS NOT NULL)),
  CHECK (result = 'SUCCESS' OR failure_code IS NOT NULL)
) STRICT;

-- source_id names one publication: a retry with it answers the first (a successful one).
CREATE UNIQUE INDEX publications_source_id ON publications (source_id) WHERE source_id IS NOT NULL AND result = 'SUCCESS';

CREATE INDEX publications_created_at ON publications (created_at);
CREATE INDEX publications_customer ON publications (customer_id, created_at);
CREATE INDEX publications_voucher_code ON publications (voucher_code, created_at);
CREATE INDEX publications_tracking_id ON publications (tracking_id, created_at);
CREATE INDEX publications_channel ON publications (channel, created_at);
CREATE INDEX publications_campaign_name ON publications (campaign_name, created_at);
CREATE INDEX publications_result ON publications (result, created_at);
CREATE INDEX publications_voucher_type ON publications (voucher_type, created_at);
CREATE INDEX publications_referral ON publications (is_referral_code, created_at);
CREATE INDEX publications_source ON publications (source_id, created_at);
CREATE INDEX publications_failure_code ON publications (failure_code, created_at) WHERE failure_code IS NOT NULL;
-- join_once: the customer's earlier publication in a campaign.
CREATE INDEX publications_customer_campaign ON publications (customer_id, campaign_id, created_at) WHERE result = 'SUCCESS';

-- The list's `total` without a filter (or with `result` only), kept by triggers as
-- redemption_counts (0018) is, so it never counts a million rows on the main thread.
CREATE TABLE publication_counts (
  result  TEXT PRIMARY KEY CHECK (result IN ('SUCCESS', 'FAILURE')),
  total   INTEGER NOT NULL CHECK (total >= 0)
) STRICT, WITHOUT ROWID;
INSERT INTO publication_counts (result, total) VALUES ('SUCCESS', 0), ('FAILURE', 0);

CREATE TRIGGER publications_count_insert AFTER INSERT ON publications
BEGIN
  UPDATE publication_counts SET total = total + 1 WHERE result = NEW.result;
END;

CREATE TRIGGER publications_count_delete AFTER DELETE ON publications
BEGIN
  UPDATE publication_counts SET total = total - 1 WHERE result = OLD.result;
END;

-- A campaign's next free voucher (any type; 0010's vouchers_free_cards covers loyalty cards
-- only), oldest first, so picking one reads one index entry.
CREATE INDEX vouchers_free ON vouchers (campaign_id, seq) WHERE holder_id IS NULL;
-- It serves the loyalty members' free cards too: 0010's loyalty-only index is no longer read.
DROP INDEX vouchers_free_cards;
