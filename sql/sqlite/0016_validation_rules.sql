-- Validation rules and their assignments (issue 12 point 3; the reference's /v1/validation-rules
-- and /v1/validation-rules-assignments).
--
-- JSON is TEXT; times are ISO 8601 UTC strings with ms. `seq` is the rowid, the tiebreak of
-- every list order (SQLite ends every index with it).

CREATE TABLE validation_rules (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  name          TEXT NOT NULL,
  -- JSON: the numbered conditions and `logic`, as answered (checked by engine/rules on write).
  rules         TEXT NOT NULL,
  -- JSON {excluded, included, included_all}, as answered.
  applicable_to TEXT NOT NULL,
  error_message TEXT,
  type          TEXT NOT NULL CHECK (type IN ('expression', 'basic', 'advanced', 'complex')),
  context_type  TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  updated_at    TEXT
) STRICT;

-- The list's three orders (and its created_at range through the first).
CREATE INDEX validation_rules_created_at ON validation_rules (created_at);
CREATE INDEX validation_rules_updated_at ON validation_rules (updated_at);
CREATE INDEX validation_rules_name ON validation_rules (name);

-- A rule applied to a voucher, campaign, promotion tier, earning rule or reward assignment.
-- Deleting a rule deletes its assignments (the reference answers 204 and refuses nothing).
CREATE TABLE validation_rules_assignments (
  seq                 INTEGER PRIMARY KEY,
  id                  TEXT NOT NULL UNIQUE,
  rule_id             TEXT NOT NULL REFERENCES validation_rules (id) ON DELETE CASCADE,
  related_object_type TEXT NOT NULL CHECK (related_object_type IN ('voucher', 'campaign', 'promotion_tier', 'earning_rule', 'reward_assignment')),
  related_object_id   TEXT NOT NULL,
  created_at          TEXT NOT NULL,
  UNIQUE (rule_id, related_object_id)
) STRICT;

-- A rule's assignments, an object's rules (what a redemption and the voucher's answer read),
-- and the whole list, each in creation order.
CREATE INDEX validation_rules_assignments_rule ON validation_rules_assignments (rule_id, created_at);
CREATE INDEX validation_rules_assignments_object ON validation_rules_assignments (related_object_id, created_at);
CREATE INDEX validation_rules_assignments_created_at ON validation_rules_assignments (created_at);
