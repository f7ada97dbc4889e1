-- Redemptions: the `result` and `object` filters indexed by their rare value only (issue 28).
--
-- redemptions_result (result, created_at) and redemptions_object (object, created_at) took an
-- entry from every record: three a stacked redemption each (the parent and two children). Yet
-- the two-valued columns only steer a list when they name the rare value: `result=SUCCESS` or
-- `object=redemption` match nearly every record, so the created_at walk fills a page of them as
-- fast as their own index did, and their counts come from redemption_counts (sql/0018). What
-- needs an index is the rare side, failures and rollback records: each gets a partial index
-- that a successful redemption never touches. The list compares these two columns with
-- literals (their values are the enums the query was checked against), which is what lets the
-- planner prove a term implies a partial index's WHERE.
DROP INDEX redemptions_result;
DROP INDEX redemptions_object;
CREATE INDEX redemptions_failures ON redemptions (created_at) WHERE result = 'FAILURE';
CREATE INDEX redemptions_rollbacks ON redemptions (created_at) WHERE object = 'redemption_rollback';
