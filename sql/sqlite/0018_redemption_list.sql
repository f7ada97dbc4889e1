-- GET /v1/redemptions (SPEC.md 4.16): the list's `total`.
--
-- Every filter and order of the list is served by the indexes of 0015. Its `total` without a
-- filter, or with `result` or `object` only, would count every record of the table (a walk of
-- a million index entries on the main thread), so the number of records per object and result
-- is kept here by triggers, in the same transaction as every change, as order_counts (0008)
-- and customer_counts are. A filtered total counts on the filter's index, so its cost grows
-- with the matching records only.
CREATE TABLE redemption_counts (
  object  TEXT NOT NULL CHECK (object IN ('redemption', 'redemption_rollback')),
  result  TEXT NOT NULL CHECK (result IN ('SUCCESS', 'FAILURE')),
  total   INTEGER NOT NULL CHECK (total >= 0),
  PRIMARY KEY (object, result)
) STRICT, WITHOUT ROWID;
INSERT INTO redemption_counts (object, result, total)
  SELECT o.object, r.result, (SELECT count(*) FROM redemptions WHERE object = o.object AND result = r.result)
  FROM (SELECT 'redemption' AS object UNION ALL SELECT 'redemption_rollback') o,
       (SELECT 'SUCCESS' AS result UNION ALL SELECT 'FAILURE') r;

CREATE TRIGGER redemptions_count_insert AFTER INSERT ON redemptions
BEGIN
  UPDATE redemption_counts SET total = total + 1 WHERE object = NEW.object AND result = NEW.result;
END;

CREATE TRIGGER redemptions_count_delete AFTER DELETE ON redemptions
BEGIN
  UPDATE redemption_counts SET total = total - 1 WHERE object = OLD.object AND result = OLD.result;
END;

-- A record's object and result are set once; this keeps the counts exact should one change.
CREATE TRIGGER redemptions_count_update AFTER UPDATE OF object, result ON redemptions
  WHEN NEW.object <> OLD.object OR NEW.result <> OLD.result
BEGIN
  UPDATE redemption_counts SET total = total - 1 WHERE object = OLD.object AND result = OLD.result;
  UPDATE redemption_counts SET total = total + 1 WHERE object = NEW.object AND result = NEW.result;
END;
