-- The ledgers (issue 11 points 2-4): every change of a loyalty card's points and of a gift
-- card's credits is one append-only row of ledger_entries, written in the same transaction as
-- the voucher's cached fields (loyalty_* and gift_* columns of vouchers), which stay a sum of
-- the rows. One table serves both balances: a row's `type` says which (POINTS_* or CREDITS_*).
--
-- `seq` is the rowid and the cursor of the transactions lists; `id` (vtx_...) is public.
-- No foreign key to vouchers: the ledger is history and outlives a deleted voucher (like
-- customer_events), and a campaign's bulk delete pays no cascade per voucher.
CREATE TABLE ledger_entries (
  seq                     INTEGER PRIMARY KEY,
  id                      TEXT NOT NULL UNIQUE,
  voucher_id              TEXT NOT NULL,
  campaign_id             TEXT,
  customer_id             TEXT,                 -- the card's holder when the row was written
  type                    TEXT NOT NULL CHECK (type IN (
                            'POINTS_ADDITION', 'POINTS_REMOVAL', 'POINTS_EXPIRATION', 'PENDING_POINTS_ACTIVATION',
                            'POINTS_ACCRUAL', 'POINTS_REDEMPTION', 'POINTS_REFUND', 'POINTS_TRANSFER_IN', 'POINTS_TRANSFER_OUT',
                            'CREDITS_ADDITION', 'CREDITS_REMOVAL', 'CREDITS_REDEMPTION', 'CREDITS_REFUND')),
  delta                   INTEGER NOT NULL CHECK (delta <> 0),
  balance                 INTEGER NOT NULL CHECK (balance >= 0),   -- the balance after this row
  total                   INTEGER NOT NULL CHECK (total >= 0),     -- lifetime points / gift amount after it
  reason                  TEXT,
  source_id               TEXT,                 -- the merchant's transaction id: retries are idempotent
  source                  TEXT,                 -- the channel (X-Voucherify-Channel, or the command line)
  operation_type          TEXT NOT NULL CHECK (operation_type IN ('MANUAL', 'AUTOMATIC')),
  order_id                TEXT,
  redemption_id           TEXT,
  rollback_id             TEXT,
  reward_id               TEXT,
  earning_rule_id         TEXT,
  pending_points_id       TEXT,
  related_transaction_id  TEXT,
  bucket_id               TEXT,                 -- the points bucket a credit went to (debits: points_draws)
  details                 TEXT,                 -- JSON: further details as answered (order source_id, names...)
  created_at              TEXT NOT NULL
) STRICT;

-- A card's rows in seq order (the index holds the rowid): the transactions lists page on it.
CREATE INDEX ledger_entries_voucher ON ledger_entries (voucher_id);
-- A repeated source_id on the same card finds the first row and changes nothing.
CREATE UNIQUE INDEX ledger_entries_source_id ON ledger_entries (voucher_id, source_id) WHERE source_id IS NOT NULL;

-- A loyalty card's points by expiry date: `total_points` is what is left of them. A card has
-- one bucket per date; points that never expire sit in the bucket dated '9999-12-31', so
-- "soonest-expiring first, non-expiring last" is plain date order. The buckets' totals of
-- ACTIVE buckets sum to the card's loyalty_balance. An expired bucket keeps what it lost in
-- `expired_points`. No foreign key, for the same reason as the ledger's: a campaign's bulk
-- delete would pay a cascade probe per voucher. The sweep retires a deleted card's buckets.
CREATE TABLE points_buckets (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,          -- lopb_...
  voucher_id      TEXT NOT NULL,
  campaign_id     TEXT,
  expires_on      TEXT NOT NULL,                 -- YYYY-MM-DD, last day the points count; '9999-12-31': never
  total_points    INTEGER NOT NULL CHECK (total_points >= 0),
  expired_points  INTEGER NOT NULL DEFAULT 0 CHECK (expired_points >= 0),
  status          TEXT NOT NULL CHECK (status IN ('ACTIVE', 'EXPIRED')),
  created_at      TEXT NOT NULL,
  updated_at      TEXT
) STRICT;

CREATE UNIQUE INDEX points_buckets_card ON points_buckets (voucher_id, expires_on);
-- The expiry sweep's walk: active buckets by date (never-expiring ones sort last and are never due).
CREATE INDEX points_buckets_due ON points_buckets (expires_on) WHERE status = 'ACTIVE';

-- Which buckets a debit drew from, and how much: a rollback (issue 13) puts points back where
-- they came from.
CREATE TABLE points_draws (
  entry_id   TEXT NOT NULL,
  bucket_id  TEXT NOT NULL,
  points     INTEGER NOT NULL CHECK (points > 0),
  PRIMARY KEY (entry_id, bucket_id)
) STRICT, WITHOUT ROWID;

-- OPENING ROWS. A voucher created with a balance (generation, import, single create, a
-- member's new card: every path inserts into vouchers) gets its opening rows and buckets in
-- the same statement's transaction, through the trigger below; so does every existing
-- voucher, once, at the end of this file. A trigger is the one place every creation path
-- passes, and its WHEN clause makes a voucher without balance cost nothing. The logic lives
-- once, in an INSTEAD OF trigger on a view that both the insert trigger and the migration
-- feed.
--
-- The rows reproduce the figures the voucher was created with: points (or the gift amount)
-- added, expired and subtracted points (the gift's subtracted amount) taken, and what is still
-- missing from the given balance as a redemption (facts 2.8: balance = points - expired -
-- subtracted - redeemed), counted in redeemed_points. A balance above what the figures allow
-- raises the lifetime points (amount) to match. Opening points expire on the given
-- next_expiration_date (as many as next_expiration_points, up to the balance), the rest never.
--
-- The first row's id is the voucher id's 16 characters after `vtx_`, so that a million
-- generated cards append to the id index in the order of their time-ordered ids; the rare
-- further rows take 18 random hex digits (randomblob: SQL has no crypto base62).
CREATE VIEW ledger_openings AS
  SELECT id, campaign_id, holder_id, type, gift_amount, gift_balance, gift_subtracted_amount, loyalty_points,
         loyalty_balance, loyalty_expired_points, loyalty_subtracted_points, loyalty_next_expiration_date,
         loyalty_next_expiration_points, created_at
  FROM vouchers WHERE 0;

-- (SQLite allows no WITH in a trigger: the figures are a derived table `f`, joined to the row
-- numbers `k` of the rows it may write.)
CREATE TRIGGER ledger_openings_points INSTEAD OF INSERT ON ledger_openings
WHEN NEW.type = 'LOYALTY_CARD'
BEGIN
  -- p: lifetime points, e: expired, s: subtracted, b: balance; p - e - s - b: redeemed
  INSERT INTO ledger_entries (id, voucher_id, campaign_id, customer_id, type, delta, balance, total, reason, source, operation_type, created_at)
    SELECT CASE k.n WHEN 1 THEN 'vtx_' || substr(NEW.id, 3) ELSE 'vtx_' || lower(hex(randomblob(9))) END,
           NEW.id, NEW.campaign_id, NEW.holder_id,
           CASE k.n WHEN 1 THEN 'POINTS_ADDITION' WHEN 2 THEN 'POINTS_EXPIRATION' WHEN 3 THEN 'POINTS_REMOVAL' ELSE 'POINTS_REDEMPTION' END,
           CASE k.n WHEN 1 THEN f.p WHEN 2 THEN -f.e WHEN 3 THEN -f.s ELSE -(f.p - f.e - f.s - f.b) END,
           CASE k.n WHEN 1 THEN f.p WHEN 2 THEN f.p - f.e WHEN 3 THEN f.p - f.e - f.s ELSE f.b END,
           f.p, 'Opening balance', NULL, 'AUTOMATIC', NEW.created_at
    FROM (SELECT max(coalesce(NEW.loyalty_points, 0), x.b + x.e + x.s) AS p, x.e, x.s, x.b
          FROM (SELECT coalesce(NEW.loyalty_balance, 0) AS b, coalesce(NEW.loyalty_expired_points, 0) AS e,
                       coalesce(NEW.loyalty_subtracted_points, 0) AS s) AS x) AS f,
         (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) AS k
    WHERE CASE k.n WHEN 1 THEN f.p > 0 WHEN 2 THEN f.e > 0 WHEN 3 THEN f.s > 0 ELSE f.p - f.e - f.s - f.b > 0 END
    ORDER BY k.n;
  -- The balance in buckets: up to next_expiration_points on next_expiration_date, the rest never.
  INSERT INTO points_buckets (id, voucher_id, campaign_id, expires_on, total_points, status, created_at)
    SELECT CASE k.n WHEN 1 THEN 'lopb_' || substr(NEW.id, 3) ELSE 'lopb_' || lower(hex(randomblob(9))) END,
           NEW.id, NEW.campaign_id,
           CASE k.n WHEN 1 THEN '9999-12-31' ELSE NEW.loyalty_next_expiration_date END,
           CASE k.n WHEN 1 THEN f.b - f.d ELSE f.d END, 'ACTIVE', NEW.created_at
    FROM (SELECT x.b, CASE WHEN NEW.loyalty_next_expiration_date IS NULL THEN 0 ELSE min(x.b, coalesce(NEW.loyalty_next_expiration_points, 0)) END AS d
          FROM (SELECT coalesce(NEW.loyalty_balance, 0) AS b) AS x) AS f,
         (SELECT 1 AS n UNION ALL SELECT 2) AS k
    WHERE CASE k.n WHEN 1 THEN f.b - f.d > 0 ELSE f.d > 0 END;
  -- The cached fields the rows imply, where the given ones differ (an inconsistent import only).
  UPDATE vouchers SET
      loyalty_points = max(coalesce(loyalty_points, 0), coalesce(loyalty_balance, 0) + coalesce(loyalty_expired_points, 0) + coalesce(loyalty_subtracted_points, 0)),
      redeemed_points = redeemed_points + max(0, coalesce(loyalty_points, 0) - coalesce(loyalty_balance, 0) - coalesce(loyalty_expired_points, 0) - coalesce(loyalty_subtracted_points, 0)),
      loyalty_next_expiration_points = coalesce((SELECT total_points FROM points_buckets WHERE voucher_id = NEW.id AND expires_on < '9999-12-31'), 0),
      loyalty_next_expiration_date = (SELECT expires_on FROM points_buckets WHERE voucher_id = NEW.id AND expires_on < '9999-12-31')
    WHERE id = NEW.id AND NOT (
      coalesce(loyalty_points, 0) = coalesce(loyalty_balance, 0) + coalesce(loyalty_expired_points, 0) + coalesce(loyalty_subtracted_points, 0)
      AND coalesce(loyalty_next_expiration_points, 0) = coalesce((SELECT total_points FROM points_buckets WHERE voucher_id = NEW.id AND expires_on < '9999-12-31'), 0)
      AND loyalty_next_expiration_date IS (SELECT expires_on FROM points_buckets WHERE voucher_id = NEW.id AND expires_on < '9999-12-31'));
END;

-- a: lifetime amount, s: subtracted, b: balance; a - s - b: redeemed
CREATE TRIGGER ledger_openings_credits INSTEAD OF INSERT ON ledger_openings
WHEN NEW.type = 'GIFT_VOUCHER'
BEGIN
  INSERT INTO ledger_entries (id, voucher_id, campaign_id, customer_id, type, delta, balance, total, reason, source, operation_type, created_at)
    SELECT CASE k.n WHEN 1 THEN 'vtx_' || substr(NEW.id, 3) ELSE 'vtx_' || lower(hex(randomblob(9))) END,
           NEW.id, NEW.campaign_id, NEW.holder_id,
           CASE k.n WHEN 1 THEN 'CREDITS_ADDITION' WHEN 2 THEN 'CREDITS_REMOVAL' ELSE 'CREDITS_REDEMPTION' END,
           CASE k.n WHEN 1 THEN f.a WHEN 2 THEN -f.s ELSE -(f.a - f.s - f.b) END,
           CASE k.n WHEN 1 THEN f.a WHEN 2 THEN f.a - f.s ELSE f.b END,
           f.a, 'Opening balance', NULL, 'AUTOMATIC', NEW.created_at
    FROM (SELECT max(coalesce(NEW.gift_amount, 0), x.b + x.s) AS a, x.s, x.b
          FROM (SELECT coalesce(NEW.gift_balance, 0) AS b, coalesce(NEW.gift_subtracted_amount, 0) AS s) AS x) AS f,
         (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) AS k
    WHERE CASE k.n WHEN 1 THEN f.a > 0 WHEN 2 THEN f.s > 0 ELSE f.a - f.s - f.b > 0 END
    ORDER BY k.n;
  UPDATE vouchers SET gift_amount = coalesce(gift_balance, 0) + coalesce(gift_subtracted_amount, 0)
    WHERE id = NEW.id AND coalesce(gift_amount, 0) < coalesce(gift_balance, 0) + coalesce(gift_subtracted_amount, 0);
END;

CREATE TRIGGER vouchers_opening_rows AFTER INSERT ON vouchers
WHEN coalesce(NEW.loyalty_points, 0) > 0 OR coalesce(NEW.loyalty_balance, 0) > 0 OR coalesce(NEW.gift_amount, 0) > 0 OR coalesce(NEW.gift_balance, 0) > 0
BEGIN
  INSERT INTO ledger_openings SELECT NEW.id, NEW.campaign_id, NEW.holder_id, NEW.type, NEW.gift_amount, NEW.gift_balance,
    NEW.gift_subtracted_amount, NEW.loyalty_points, NEW.loyalty_balance, NEW.loyalty_expired_points, NEW.loyalty_subtracted_points,
    NEW.loyalty_next_expiration_date, NEW.loyalty_next_expiration_points, NEW.created_at;
END;

-- Existing databases: every card and gift card with a balance gets its opening rows now.
INSERT INTO ledger_openings
  SELECT id, campaign_id, holder_id, type, gift_amount, gift_balance, gift_subtracted_amount, loyalty_points, loyalty_balance,
         loyalty_expired_points, loyalty_subtracted_points, loyalty_next_expiration_date, loyalty_next_expiration_points, created_at
  FROM vouchers
  WHERE coalesce(loyalty_points, 0) > 0 OR coalesce(loyalty_balance, 0) > 0 OR coalesce(gift_amount, 0) > 0 OR coalesce(gift_balance, 0) > 0
  ORDER BY seq;
