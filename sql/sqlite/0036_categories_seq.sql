-- Categories in the order they were made, on both engines: `seq`, the rowid written out as a
-- column. GET /v1/categories lists by it (two categories made in one millisecond keep their
-- insert order); a PostgreSQL table has no rowid, so the order needs a column both schemas
-- hold (sql/postgres/0036). SQLite cannot add a column that aliases the rowid: the trigger
-- copies the rowid of each new row (an insert that names its own seq keeps it).
ALTER TABLE categories ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE categories SET seq = rowid;
CREATE INDEX categories_seq ON categories (seq);
CREATE TRIGGER categories_seq AFTER INSERT ON categories WHEN NEW.seq = 0
BEGIN
  UPDATE categories SET seq = NEW.rowid WHERE rowid = NEW.rowid;
END;
