-- Rewards and their assignments to loyalty programs (SPEC.md 2.8, 2.9), loyalty tiers
-- (SPEC.md 2.10) and the tier each loyalty card is in now.
--
-- JSON objects are TEXT; times are ISO 8601 UTC strings with ms. `seq` is the rowid: lists
-- walk it (creation order) and every secondary index ends with it.

CREATE TABLE rewards (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  type        TEXT NOT NULL CHECK (type IN ('CAMPAIGN', 'MATERIAL', 'COIN')),
  -- JSON: the type's parameters as answered ({campaign: {id, balance?, type}}, {product: {id,
  -- sku_id}}, {coin: {exchange_ratio, points_ratio}}).
  parameters  TEXT NOT NULL,
  -- The campaign of a CAMPAIGN reward and the product of a MATERIAL one, for the references.
  campaign_id TEXT REFERENCES campaigns (id) ON DELETE CASCADE,
  -- NULL: unlimited. `redeemed` is NULL until the first redemption claims one; both change only
  -- through one guarded UPDATE each, and the CHECK makes an oversell impossible even so.
  stock       INTEGER CHECK (stock IS NULL OR stock >= 0),
  redeemed    INTEGER CHECK (redeemed IS NULL OR redeemed >= 0),
  attributes  TEXT NOT NULL DEFAULT '{}',
  metadata    TEXT NOT NULL DEFAULT '{}',
  created_at  TEXT NOT NULL,
  updated_at  TEXT,
  CHECK (stock IS NULL OR redeemed IS NULL OR redeemed <= stock)
) STRICT;

-- The list walks rewards in creation order (seq breaks ties within a millisecond).
CREATE INDEX rewards_created_at ON rewards (created_at);
CREATE INDEX rewards_campaign ON rewards (campaign_id) WHERE campaign_id IS NOT NULL;

-- A reward offered in a loyalty program, at a points cost (NULL for COIN rewards, which have none).
CREATE TABLE reward_assignments (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  reward_id    TEXT NOT NULL REFERENCES rewards (id) ON DELETE CASCADE,
  campaign_id  TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  points       INTEGER CHECK (points IS NULL OR points >= 1),
  auto_redeem  INTEGER CHECK (auto_redeem IS NULL OR auto_redeem IN (0, 1)),
  created_at   TEXT NOT NULL,
  updated_at   TEXT
) STRICT;

-- One assignment per reward and program (409 duplicate_found otherwise). The lists of a program
-- and of a reward walk these in creation order (seq ends each index).
CREATE UNIQUE INDEX reward_assignments_campaign_reward ON reward_assignments (campaign_id, reward_id);
CREATE INDEX reward_assignments_campaign ON reward_assignments (campaign_id);
CREATE INDEX reward_assignments_reward ON reward_assignments (reward_id);

CREATE TABLE loyalty_tiers (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  campaign_id    TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  -- Inclusive bounds; points_to NULL: no upper bound. Ranges of one program never overlap.
  points_from    INTEGER NOT NULL CHECK (points_from >= 0),
  points_to      INTEGER CHECK (points_to IS NULL OR points_to >= points_from),
  earning_rules  TEXT NOT NULL DEFAULT '{}',   -- JSON {ern_id: {type MULTIPLY|CUSTOM, ...}}
  rewards        TEXT NOT NULL DEFAULT '{}',   -- JSON {rewa_id: {type CUSTOM, points}}
  metadata       TEXT NOT NULL DEFAULT '{}',
  created_at     TEXT NOT NULL,
  updated_at     TEXT
) STRICT;

CREATE INDEX loyalty_tiers_created_at ON loyalty_tiers (campaign_id, created_at);
CREATE INDEX loyalty_tiers_updated_at ON loyalty_tiers (campaign_id, updated_at);
CREATE INDEX loyalty_tiers_points ON loyalty_tiers (campaign_id, points_from);

-- The tier a loyalty card is in now (none: no row), kept in the transaction of every points
-- change. `start_date` is when it entered the tier, `expiration_date` when the tier ends unless
-- the points keep it (NULL: kept as long as the points are). A deleted card's row goes with it:
-- a campaign's bulk delete pays one primary-key probe per voucher for that.
CREATE TABLE loyalty_member_tiers (
  voucher_id       TEXT PRIMARY KEY REFERENCES vouchers (id) ON DELETE CASCADE,
  campaign_id      TEXT NOT NULL,
  customer_id      TEXT,
  tier_id          TEXT NOT NULL REFERENCES loyalty_tiers (id) ON DELETE CASCADE,
  start_date       TEXT NOT NULL,
  expiration_date  TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT
) STRICT;

CREATE INDEX loyalty_member_tiers_tier ON loyalty_member_tiers (tier_id);
