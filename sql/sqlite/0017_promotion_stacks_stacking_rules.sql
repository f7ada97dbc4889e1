-- Promotion tiers' own endpoints, promotion stacks and the project's stacking rules (issue 12,
-- points 4 and 5).

-- GET /v1/promotions/tiers (and /client/v1/promotions/tiers): every order (created_at,
-- updated_at, each way) is a walk of one index ending with seq; with `is_available=true`, of
-- the active tiers' index, the other terms (dates, the campaign's flag and dates through
-- campaigns.id) checked on the rows walked.
CREATE INDEX promotion_tiers_created_at ON promotion_tiers (created_at, seq);
CREATE INDEX promotion_tiers_updated_at ON promotion_tiers (updated_at, seq);
CREATE INDEX promotion_tiers_active_created_at ON promotion_tiers (active, created_at, seq);
CREATE INDEX promotion_tiers_active_updated_at ON promotion_tiers (active, updated_at, seq);

-- Promotion stacks: named, ordered sets of 1 to 30 tiers of one PROMOTION campaign. Removing
-- the campaign's row removes its stacks.
CREATE TABLE promotion_stacks (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  campaign_id     TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  name            TEXT NOT NULL,
  hierarchy_mode  TEXT NOT NULL DEFAULT 'MANUAL' CHECK (hierarchy_mode IN ('MANUAL')),
  category_id     TEXT REFERENCES categories (id),
  created_at      TEXT NOT NULL,
  updated_at      TEXT
) STRICT;

CREATE INDEX promotion_stacks_campaign ON promotion_stacks (campaign_id, created_at);
-- GET /v1/promotions/stacks orders (created_at, updated_at, name; a date filter on another
-- field is checked on the rows walked). The date indexes end with campaign_id so that a
-- count over a date range (joined to the live campaigns) reads the index alone.
CREATE INDEX promotion_stacks_created_at ON promotion_stacks (created_at, seq, campaign_id);
CREATE INDEX promotion_stacks_updated_at ON promotion_stacks (updated_at, seq, campaign_id);
CREATE INDEX promotion_stacks_name ON promotion_stacks (name, seq);

-- A stack's tiers in their order. A tier in a stack cannot be deleted (400 resource_in_use):
-- the foreign key has no cascade, and promotion_stack_tiers_tier finds its stacks.
CREATE TABLE promotion_stack_tiers (
  stack_id   TEXT NOT NULL REFERENCES promotion_stacks (id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  tier_id    TEXT NOT NULL REFERENCES promotion_tiers (id),
  PRIMARY KEY (stack_id, position)
) STRICT, WITHOUT ROWID;

CREATE INDEX promotion_stack_tiers_tier ON promotion_stack_tiers (tier_id);

-- The project's stacking rules: at most one row (absent: the reference's defaults). `rules`
-- is the JSON StackingRules object, complete and validated on write, so a checkout reads it
-- with one primary-key lookup.
CREATE TABLE stacking_rules (
  singleton   INTEGER PRIMARY KEY CHECK (singleton = 1),
  id          TEXT NOT NULL UNIQUE,
  rules       TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT
) STRICT;
