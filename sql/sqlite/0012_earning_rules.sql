-- Earning rules of loyalty programs (issue 11 point 5) and the pending points they create
-- (point 6). Balances are not here: points move only through the ledgers (sql/0009).

-- One earning rule of a program. `loyalty` is the rule's JSON `loyalty` block as answered
-- (FIXED points, or PROPORTIONAL with its calculation block); `segment`, `custom_event` and
-- `expiration_rules` are JSON blocks kept as sent. `pending_days` is pending_points.period_value
-- (period_type DAY, the only one). Rules go with their program.
CREATE TABLE earning_rules (
  seq                   INTEGER PRIMARY KEY,
  id                    TEXT NOT NULL UNIQUE,
  campaign_id           TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  event                 TEXT NOT NULL,
  loyalty               TEXT NOT NULL CHECK (json_type(loyalty) = 'object'),
  loyalty_tier_id       TEXT,
  segment               TEXT CHECK (segment IS NULL OR json_type(segment) = 'object'),
  custom_event          TEXT CHECK (custom_event IS NULL OR json_type(custom_event) = 'object'),
  banner                TEXT,
  active                INTEGER NOT NULL CHECK (active IN (0, 1)),
  pending_days          INTEGER CHECK (pending_days BETWEEN 1 AND 90),
  expiration_rules      TEXT CHECK (expiration_rules IS NULL OR json_type(expiration_rules) = 'object'),
  validation_rule_id    TEXT,
  start_date            TEXT,
  expiration_date       TEXT,
  validity_timeframe    TEXT,
  validity_day_of_week  TEXT,
  validity_hours        TEXT,
  metadata              TEXT NOT NULL CHECK (json_type(metadata) = 'object'),
  created_at            TEXT NOT NULL,
  updated_at            TEXT
) STRICT;

-- GET /v1/loyalties/{id}/earning-rules in each order (created_at, updated_at; never-updated
-- rules sort by creation), and a paid order's look-up of a program's rules for one event.
CREATE INDEX earning_rules_created ON earning_rules (campaign_id, created_at, seq);
CREATE INDEX earning_rules_updated ON earning_rules (campaign_id, updated_at, created_at, seq);
CREATE INDEX earning_rules_event ON earning_rules (campaign_id, event, active);

-- Points an earning rule gave that wait `pending_days` before they count (the reference's
-- LoyaltyPendingPoints, `lopp_` ids). The card's loyalty_card.pending_points is the sum of its
-- PENDING rows, kept by the ledger. `activates_at` is the instant the sweep activates it
-- (answered as its date); `details` is the reference's JSON details block; `expiration_rules`
-- the earning rule's own (NULL: the program's), applied from the day the points activate.
CREATE TABLE loyalty_pending_points (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  voucher_id       TEXT NOT NULL REFERENCES vouchers (id) ON DELETE CASCADE,
  campaign_id      TEXT NOT NULL,
  customer_id      TEXT NOT NULL,
  order_id         TEXT NOT NULL,
  earning_rule_id  TEXT NOT NULL,
  points           INTEGER NOT NULL CHECK (points > 0),
  status           TEXT NOT NULL CHECK (status IN ('PENDING', 'ACTIVATED', 'CANCELED')),
  activates_at     TEXT NOT NULL,
  details          TEXT NOT NULL CHECK (json_type(details) = 'object'),
  expiration_rules TEXT CHECK (expiration_rules IS NULL OR json_type(expiration_rules) = 'object'),
  created_at       TEXT NOT NULL,
  updated_at       TEXT
) STRICT;

-- The lists (a card's, a program's) hold PENDING rows, ordered by id (the reference's `order`
-- is `id` or `-id`); the sweep takes due rows by time; a canceled order finds its rows. The
-- card's index is whole, not partial: deleting vouchers (a campaign's, by the thousand) finds
-- each card's rows through it for the foreign key's cascade instead of scanning the table.
CREATE INDEX loyalty_pending_points_voucher ON loyalty_pending_points (voucher_id, id);
CREATE INDEX loyalty_pending_points_campaign ON loyalty_pending_points (campaign_id, id) WHERE status = 'PENDING';
CREATE INDEX loyalty_pending_points_due ON loyalty_pending_points (activates_at) WHERE status = 'PENDING';
CREATE INDEX loyalty_pending_points_order ON loyalty_pending_points (order_id) WHERE status = 'PENDING';
