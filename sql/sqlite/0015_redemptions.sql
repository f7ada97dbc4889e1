-- Redemptions (SPEC.md 2.12, 4.16, 4.17; voucherify-facts 1.16, 1.17, 2.6).
--
-- One table holds every record the redemption list answers, so `GET /v1/redemptions` reads
-- one indexed scan: parent redemptions (r_, related_object_type 'redemption'), their children
-- (r_, one per applied redeemable, `parent_id` = the parent), failed redemptions (rf_), and
-- later rollback records (rr_ / rrf_, object 'redemption_rollback', `parent_id` = the
-- redemption rolled back). A rollback sets the original's status to ROLLED_BACK and appends to
-- its `related_redemptions`.
--
-- A row is the answer as it was at the time: the order after the redemption (OrderCalculated
-- with its items), the customer, the voucher, the tier and the reward are stored as JSON
-- snapshots, so the list never recomputes or joins them. Filter and order keys (voucher_code,
-- campaign_name, customer_id, tracking_id, ...) are plain columns, each with an index that ends
-- with created_at (and the rowid), so every list order and filter is read from an index.
-- No foreign keys: a redemption is history and outlives a deleted voucher, customer or
-- campaign (like ledger_entries and customer_events).
--
-- Sizes: order_snapshot holds at most 500 items (the order's own limit); the other JSON
-- values are built by the service from stored rows, never taken verbatim from a request,
-- except `metadata` (the request's, bounded by the body limit and the JSON depth limit).
CREATE TABLE redemptions (
  seq                       INTEGER PRIMARY KEY,
  id                        TEXT NOT NULL UNIQUE,
  object                    TEXT NOT NULL CHECK (object IN ('redemption', 'redemption_rollback')),
  -- `redemption` of the answer: a child's parent; a rollback's rolled-back redemption.
  parent_id                 TEXT,
  created_at                TEXT NOT NULL,          -- `date`
  customer_id               TEXT,
  tracking_id               TEXT,
  metadata                  TEXT CHECK (metadata IS NULL OR json_type(metadata) = 'object'),
  -- Gift credits or points used (negative on a rollback); the parent: their sum.
  amount                    INTEGER,
  result                    TEXT NOT NULL CHECK (result IN ('SUCCESS', 'FAILURE')),
  status                    TEXT NOT NULL CHECK (status IN ('SUCCEEDED', 'FAILED', 'ROLLED_BACK')),
  failure_code              TEXT,
  failure_message           TEXT,
  reason                    TEXT,                   -- rollbacks only
  rollback_order_mode       TEXT CHECK (rollback_order_mode IN ('WITH_ORDER', 'WITHOUT_ORDER')),
  related_object_type       TEXT NOT NULL CHECK (related_object_type IN ('voucher', 'promotion_tier', 'redemption')),
  related_object_id         TEXT NOT NULL,
  -- The related object's campaign (the list's related_object_parent_id filter).
  related_object_parent_id  TEXT,
  voucher_id                TEXT,
  voucher_code              TEXT,
  campaign_id               TEXT,
  campaign_name             TEXT,
  promotion_tier_id         TEXT,
  order_id                  TEXT,
  -- JSON snapshots as answered (NULL when the answer shows null or leaves the field out).
  order_snapshot            TEXT CHECK (order_snapshot IS NULL OR json_type(order_snapshot) = 'object'),
  customer_snapshot         TEXT CHECK (customer_snapshot IS NULL OR json_type(customer_snapshot) = 'object'),
  voucher_snapshot          TEXT CHECK (voucher_snapshot IS NULL OR json_type(voucher_snapshot) = 'object'),
  promotion_tier_snapshot   TEXT CHECK (promotion_tier_snapshot IS NULL OR json_type(promotion_tier_snapshot) = 'object'),
  reward_snapshot           TEXT CHECK (reward_snapshot IS NULL OR json_type(reward_snapshot) = 'object'),
  gift_amount               INTEGER,
  loyalty_points            INTEGER,
  channel_id                TEXT,
  channel_type              TEXT NOT NULL CHECK (channel_type IN ('USER', 'API', 'AUTO_REDEEM')),
  session_key               TEXT,
  -- {rollbacks: [{id, date, rollback_order_mode}], redemptions: [{id, date}]}
  related_redemptions       TEXT NOT NULL DEFAULT '{"rollbacks":[],"redemptions":[]}'
                              CHECK (json_type(related_redemptions) = 'object'),
  CHECK ((result = 'FAILURE') = (status = 'FAILED')),
  CHECK (result = 'SUCCESS' OR failure_code IS NOT NULL)
) STRICT;

-- The list: newest first by default; each order key and filter has its index, ending with
-- created_at (and the rowid, implicitly) so a filtered list ordered by date is one range scan.
CREATE INDEX redemptions_created_at ON redemptions (created_at);
CREATE INDEX redemptions_voucher_code ON redemptions (voucher_code, created_at);
CREATE INDEX redemptions_tracking_id ON redemptions (tracking_id, created_at);
CREATE INDEX redemptions_customer ON redemptions (customer_id, created_at);
CREATE INDEX redemptions_result ON redemptions (result, created_at);
CREATE INDEX redemptions_object ON redemptions (object, created_at);
CREATE INDEX redemptions_campaign_name ON redemptions (campaign_name, created_at);
CREATE INDEX redemptions_related_object ON redemptions (related_object_id, created_at);
CREATE INDEX redemptions_related_parent ON redemptions (related_object_parent_id, created_at);
CREATE INDEX redemptions_parent ON redemptions (parent_id, created_at);
CREATE INDEX redemptions_failure_code ON redemptions (failure_code, created_at) WHERE failure_code IS NOT NULL;
-- A voucher's redemptions (GET /v1/vouchers/{code}/redemption) and an order's.
CREATE INDEX redemptions_voucher ON redemptions (voucher_id, created_at);
CREATE INDEX redemptions_order ON redemptions (order_id) WHERE order_id IS NOT NULL;
