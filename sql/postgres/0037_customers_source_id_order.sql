-- GET /v1/customers?order=source_id (and -source_id) on PostgreSQL. SQLite walks its unique
-- index on source_id, which holds NULLs first and ties them by rowid: the list's order
-- (NULLs first, then seq). PostgreSQL's unique constraint on source_id puts NULLs last and
-- does not end in seq, so every customer without a source_id (most of an imported shop) would
-- be sorted on each page; this index gives the order itself, walked forwards or backwards.
-- The SQLite twin of this number is empty (test/db/postgres-schema.test.ts names the index).
CREATE INDEX customers_source_id_order ON customers (source_id NULLS FIRST, seq);
