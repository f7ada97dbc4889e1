-- Redemptions: fewer index entries per record (issue 28). A stacked redemption writes three
-- records (the parent and two children), and every index took an entry from each.
--
-- 1. redemptions_order (order_id) goes: nothing reads redemptions by their order (an order's
--    redemptions are the `redemptions` map on the order itself; a rollback reads the order by
--    the record's order_id, not the records by the order).
-- 2. redemptions_result (result, created_at) and redemptions_object (object, created_at) become
--    indexes of their rare value only. The two-valued columns only steer a list when they name
--    the rare value: `result=SUCCESS` or `object=redemption` match nearly every record, so the
--    created_at walk fills a page of them as fast as their own index did, and their counts come
--    from redemption_counts (sql/0018). What needs an index is the rare side, failures and
--    rollback records: each gets a partial index that a successful redemption never touches. The
--    list compares these two columns with literals (their values are the enums the query was
--    checked against), which is what lets the planner prove that a term implies a partial
--    index's WHERE.
-- Three entries fewer per record; nothing is rewritten, so existing files migrate at once.
DROP INDEX redemptions_order;
DROP INDEX redemptions_result;
DROP INDEX redemptions_object;
CREATE INDEX redemptions_failures ON redemptions (created_at) WHERE result = 'FAILURE';
CREATE INDEX redemptions_rollbacks ON redemptions (created_at) WHERE object = 'redemption_rollback';
