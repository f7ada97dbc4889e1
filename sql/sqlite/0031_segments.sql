-- Customer segments (POST/GET/DELETE /v1/segments, GET /v1/customers/{id}/segments) and who
-- belongs to each. A `static` segment's members are the customers it was created with; an
-- `auto-update` (or `passive`) segment's are the customers its `filter` (the condition engine
-- over customer fields) holds for: computed by a SEGMENTS.INITIAL_SYNC job after creation,
-- then kept by every customer create and update, in that change's transaction.
CREATE TABLE segments (
  seq                  INTEGER PRIMARY KEY,
  id                   TEXT NOT NULL UNIQUE,
  name                 TEXT NOT NULL,
  type                 TEXT NOT NULL CHECK (type IN ('static', 'auto-update', 'passive')),
  filter               TEXT,                 -- JSON: the checked filter; NULL for static
  initial_sync_status  TEXT NOT NULL CHECK (initial_sync_status IN ('IN_PROGRESS', 'DONE')),
  created_at           TEXT NOT NULL,
  CHECK ((type = 'static') = (filter IS NULL))
) STRICT;

-- The segments a customer change re-evaluates (at most 100: the reference's cap).
CREATE INDEX segments_dynamic ON segments (type) WHERE type <> 'static';

-- One row per (segment, customer): the primary key makes an entry happen once, whoever
-- writes it (INSERT ... ON CONFLICT DO NOTHING RETURNING tells the writer that entered it).
-- The row carries the customer's list keys (seq, created_at, updated_at, source_id), so the
-- customers list of one segment (`segment_id`) is read in any of its orders from the
-- segment's own index, however few of a million customers it holds; a trigger keeps the
-- copies of updated_at and source_id (which every customer change, summary updates
-- included, may move) in the same statement as the change.
CREATE TABLE segment_members (
  segment_id     TEXT NOT NULL REFERENCES segments (id) ON DELETE CASCADE,
  customer_id    TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  customer_seq   INTEGER NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  source_id      TEXT,
  PRIMARY KEY (segment_id, customer_id)
) STRICT, WITHOUT ROWID;

-- A customer's segments (GET /v1/customers/{id}/segments, re-evaluation, the trigger, deletion's cascade).
CREATE INDEX segment_members_customer ON segment_members (customer_id);
-- The customers list's orders within one segment; each ends with the customer's seq.
CREATE INDEX segment_members_created ON segment_members (segment_id, created_at, customer_seq);
CREATE INDEX segment_members_updated ON segment_members (segment_id, updated_at, customer_seq);
CREATE INDEX segment_members_source ON segment_members (segment_id, source_id, customer_seq);

CREATE TRIGGER customers_segment_keys AFTER UPDATE OF updated_at, source_id ON customers
WHEN OLD.updated_at IS NOT NEW.updated_at OR OLD.source_id IS NOT NEW.source_id
BEGIN
  UPDATE segment_members SET updated_at = NEW.updated_at, source_id = NEW.source_id WHERE customer_id = NEW.id;
END;
