-- Exports (issue 14, point 7): POST /v1/exports runs an EXPORT job (src/modules/exports) that
-- writes a CSV file into the directory beside the database (`<db file>.exports/`). This row is
-- the export object of the reference; the job's async action does the work. `status` follows
-- the job (SCHEDULED -> IN_PROGRESS -> DONE | ERROR) and is written by the job's step, so the
-- list's `order=status` has an index of its own.
CREATE TABLE exports (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,                 -- exp_...
  exported_object  TEXT NOT NULL,
  parameters       TEXT NOT NULL,                        -- JSON, as answered
  channel          TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('SCHEDULED', 'IN_PROGRESS', 'DONE', 'ERROR')),
  async_action_id  TEXT NOT NULL,
  -- The job's resumable state: the keyset position after the last row written, and how many
  -- bytes of the file that position covers (a resumed portion truncates the file to it).
  last_key         TEXT,                                 -- JSON [order value, seq]
  bytes            INTEGER NOT NULL DEFAULT 0,
  rows             INTEGER NOT NULL DEFAULT 0,
  created_at       TEXT NOT NULL,
  updated_at       TEXT
) STRICT;

CREATE INDEX exports_created_at ON exports (created_at);
CREATE INDEX exports_status_created_at ON exports (status, created_at);

-- Orders the exports accept that no earlier index served: points expirations by date, and
-- voucher transactions by date (the ledger's rows are otherwise read by card).
CREATE INDEX points_buckets_expires_on ON points_buckets (expires_on);
CREATE INDEX ledger_entries_created_at ON ledger_entries (created_at);
