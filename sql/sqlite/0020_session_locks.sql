-- Session locks (issue 13 point 2; voucherify-facts 1.17 `session {type: LOCK, key, ttl,
-- ttl_unit}`). A validation with a LOCK session reserves what it would take; a redemption with
-- the same key consumes the reservation; an expired lock frees it.
--
-- Each counter that a redemption's guarded statement checks gets a `reserved` column beside
-- it, so the check stays ONE guarded statement that counts reservations:
--   vouchers.reserved_quantity  redeemed_quantity + reserved_quantity <= redemption_quantity
--   vouchers.reserved_credits   gift_balance - reserved_credits >= the credits taken
--   vouchers.reserved_points    loyalty_balance - reserved_points >= the points taken
--   rewards.reserved            redeemed + reserved <= stock
-- A column is the sum of the live reservations of it (session_reservations), changed in the
-- same transaction as they are. Adding a column with a constant default is O(1) in SQLite.
ALTER TABLE vouchers ADD COLUMN reserved_quantity INTEGER NOT NULL DEFAULT 0 CHECK (reserved_quantity >= 0);
ALTER TABLE vouchers ADD COLUMN reserved_credits INTEGER NOT NULL DEFAULT 0 CHECK (reserved_credits >= 0);
ALTER TABLE vouchers ADD COLUMN reserved_points INTEGER NOT NULL DEFAULT 0 CHECK (reserved_points >= 0);
ALTER TABLE rewards ADD COLUMN reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0);

-- One row per session key. `busy_until`: a request on this key is running (until then, at
-- most: a process that died mid-request frees the key after a few seconds); a second request
-- on the key meanwhile is refused with multiple_requests. A key only claimed by a request
-- (a redemption naming a session without a lock) expires with its claim.
CREATE TABLE session_locks (
  key          TEXT PRIMARY KEY,
  expires_at   TEXT NOT NULL,
  busy_until   TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT
) STRICT, WITHOUT ROWID;

-- The sweep's and the lazy release's walk: locks by expiry.
CREATE INDEX session_locks_expires ON session_locks (expires_at);

-- What a session holds: kind QUANTITY (a voucher's redemption), CREDITS (a gift card's),
-- POINTS (a loyalty card's), REWARD (a reward's unit of stock), on `target_id` (a voucher or
-- reward id).
CREATE TABLE session_reservations (
  session_key  TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('QUANTITY', 'CREDITS', 'POINTS', 'REWARD')),
  target_id    TEXT NOT NULL,
  amount       INTEGER NOT NULL CHECK (amount > 0),
  PRIMARY KEY (session_key, kind, target_id)
) STRICT, WITHOUT ROWID;
