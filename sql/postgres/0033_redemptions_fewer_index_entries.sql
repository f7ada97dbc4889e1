-- The PostgreSQL twin of sql/0033_redemptions_fewer_index_entries.sql (the comments there say
-- why): redemptions_order goes, and the `result` and `object` filters are indexed by their rare
-- value only. The row key SQLite appends to an index (seq) is written out, as in the baseline.
DROP INDEX redemptions_order;
DROP INDEX redemptions_result;
DROP INDEX redemptions_object;
CREATE INDEX redemptions_failures ON redemptions (created_at, seq) WHERE result = 'FAILURE';
CREATE INDEX redemptions_rollbacks ON redemptions (created_at, seq) WHERE object = 'redemption_rollback';
