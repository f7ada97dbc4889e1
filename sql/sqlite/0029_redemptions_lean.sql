-- Redemptions, leaner per stored record (issue 13 point 4: throughput of stacked redemptions).
--
-- A redemption writes a parent and one child per redeemable; each row fed 14 indexes and 6
-- json_type() CHECKs, each of which parsed its JSON again (the order snapshot alone ~2 KiB).
-- 1. The snapshots (order, customer, voucher, tier, reward) and related_redemptions are built
--    by the service from stored rows, never taken from a request: their CHECKs go. `metadata`
--    (the request's) keeps its CHECK.
-- 2. redemptions_voucher (voucher_id, created_at) goes, folded into redemptions_related_object:
--    a row with a voucher_id has that same id as its related_object_id (a redemption of the
--    voucher, a failed one, a rollback of either), so a voucher's records are the entries of its
--    id there whose voucher_id is the voucher's too (an unknown code that happens to equal a
--    voucher's id gives a failed record with that related_object_id and no voucher_id). With
--    seq and voucher_id in the index, GET /v1/vouchers/{code}/redemption walks it in order and
--    counts on it alone, and the list's related_object_id filter still walks it in
--    (created_at, seq) order. One index entry less per record, on a voucher-keyed (random) page.
--    The list's other indexes keep their nulls: `$is_unknown` reads them (voucher_code,
--    customer_id, campaign_name, parent_id, related_object_parent_id) and an order by
--    tracking_id walks them first.
-- SQLite cannot drop a CHECK: the table is rebuilt with the same columns in the same order,
-- and its indexes and counting triggers (0018) are made again.
CREATE TABLE redemptions_lean (
  seq                       INTEGER PRIMARY KEY,
  id                        TEXT NOT NULL UNIQUE,
  object                    TEXT NOT NULL CHECK (object IN ('redemption', 'redemption_rollback')),
  parent_id                 TEXT,
  created_at                TEXT NOT NULL,
  customer_id               TEXT,
  tracking_id               TEXT,
  metadata                  TEXT CHECK (metadata IS NULL OR json_type(metadata) = 'object'),
  amount                    INTEGER,
  result                    TEXT NOT NULL CHECK (result IN ('SUCCESS', 'FAILURE')),
  status                    TEXT NOT NULL CHECK (status IN ('SUCCEEDED', 'FAILED', 'ROLLED_BACK')),
  failure_code              TEXT,
  failure_message           TEXT,
  reason                    TEXT,
  rollback_order_mode       TEXT CHECK (rollback_order_mode IN ('WITH_ORDER', 'WITHOUT_ORDER')),
  related_object_type       TEXT NOT NULL CHECK (related_object_type IN ('voucher', 'promotion_tier', 'redemption')),
  related_object_id         TEXT NOT NULL,
  related_object_parent_id  TEXT,
  voucher_id                TEXT,
  voucher_code              TEXT,
  campaign_id               TEXT,
  campaign_name             TEXT,
  promotion_tier_id         TEXT,
  order_id                  TEXT,
  order_snapshot            TEXT,
  customer_snapshot         TEXT,
  voucher_snapshot          TEXT,
  promotion_tier_snapshot   TEXT,
  reward_snapshot           TEXT,
  gift_amount               INTEGER,
  loyalty_points            INTEGER,
  channel_id                TEXT,
  channel_type              TEXT NOT NULL CHECK (channel_type IN ('USER', 'API', 'AUTO_REDEEM')),
  session_key               TEXT,
  related_redemptions       TEXT NOT NULL DEFAULT '{"rollbacks":[],"redemptions":[]}',
  CHECK ((result = 'FAILURE') = (status = 'FAILED')),
  CHECK (result = 'SUCCESS' OR failure_code IS NOT NULL)
) STRICT;

INSERT INTO redemptions_lean SELECT * FROM redemptions;
DROP TABLE redemptions;
ALTER TABLE redemptions_lean RENAME TO redemptions;

CREATE INDEX redemptions_created_at ON redemptions (created_at);
CREATE INDEX redemptions_voucher_code ON redemptions (voucher_code, created_at);
CREATE INDEX redemptions_tracking_id ON redemptions (tracking_id, created_at);
CREATE INDEX redemptions_customer ON redemptions (customer_id, created_at);
CREATE INDEX redemptions_result ON redemptions (result, created_at);
CREATE INDEX redemptions_object ON redemptions (object, created_at);
CREATE INDEX redemptions_campaign_name ON redemptions (campaign_name, created_at);
CREATE INDEX redemptions_related_object ON redemptions (related_object_id, created_at, seq, voucher_id);
CREATE INDEX redemptions_related_parent ON redemptions (related_object_parent_id, created_at);
CREATE INDEX redemptions_parent ON redemptions (parent_id, created_at);
CREATE INDEX redemptions_failure_code ON redemptions (failure_code, created_at) WHERE failure_code IS NOT NULL;
CREATE INDEX redemptions_order ON redemptions (order_id) WHERE order_id IS NOT NULL;

CREATE TRIGGER redemptions_count_insert AFTER INSERT ON redemptions
BEGIN
  UPDATE redemption_counts SET total = total + 1 WHERE object = NEW.object AND result = NEW.result;
END;

CREATE TRIGGER redemptions_count_delete AFTER DELETE ON redemptions
BEGIN
  UPDATE redemption_counts SET total = total - 1 WHERE object = OLD.object AND result = OLD.result;
END;

CREATE TRIGGER redemptions_count_update AFTER UPDATE OF object, result ON redemptions
  WHEN NEW.object <> OLD.object OR NEW.result <> OLD.result
BEGIN
  UPDATE redemption_counts SET total = total - 1 WHERE object = OLD.object AND result = OLD.result;
  UPDATE redemption_counts SET total = total + 1 WHERE object = NEW.object AND result = NEW.result;
END;
