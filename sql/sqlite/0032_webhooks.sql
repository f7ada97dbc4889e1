-- Webhooks (the reference's management API: /management/v1/projects/{projectId}/webhooks) and
-- their outbox. An event a webhook subscribes to is written in the transaction of the change it
-- describes (webhook_events), with one delivery row per active webhook that wants its type
-- (webhook_deliveries): both commit or roll back with the change, so a crash after the commit
-- loses nothing, and each (event, webhook) pair exists once.
CREATE TABLE webhooks (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  target_url   TEXT NOT NULL,
  events       TEXT NOT NULL,            -- JSON array of event types
  active       INTEGER NOT NULL CHECK (active IN (0, 1)),
  secret       TEXT NOT NULL,            -- the signing secret: needed in clear to sign
  created_at   TEXT NOT NULL,
  updated_at   TEXT,
  -- The sender that holds this webhook's queue (one in flight per webhook, in commit order),
  -- until lease_until: a process that dies leaves its lease to expire.
  lease_owner  TEXT,
  lease_until  TEXT
) STRICT;

CREATE TABLE webhook_events (
  seq         INTEGER PRIMARY KEY,       -- commit order: one writer, rows inserted in commit order
  id          TEXT NOT NULL UNIQUE,
  type        TEXT NOT NULL,
  data        TEXT NOT NULL,             -- JSON: the event's data object
  entity_id   TEXT,
  group_id    TEXT,                      -- the request id that caused it
  channel     TEXT NOT NULL,
  created_at  TEXT NOT NULL
) STRICT;

CREATE TABLE webhook_deliveries (
  seq              INTEGER PRIMARY KEY,
  -- whs_ and 96 random bits: the sendout id the envelope carries. Not indexed: each index is
  -- one more B-tree every redemption's delivery rows are written to, and only a replay looks
  -- a delivery up by id.
  id               TEXT NOT NULL,
  webhook_id       TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_seq        INTEGER NOT NULL,      -- webhook_events.seq (events are never deleted once owed)
  status           TEXT NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT NOT NULL,
  last_status      INTEGER,               -- the receiver's last HTTP status, if it answered
  last_error       TEXT,
  created_at       TEXT NOT NULL,
  finished_at      TEXT
) STRICT;

-- A webhook's queue, in commit order: its head is the first PENDING row.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, seq) WHERE status = 'PENDING';
-- A webhook's last deliveries (GET, promo webhooks deliveries), newest first.
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, seq);
-- The oldest undelivered event (/metrics) reads the pending index too (few rows: what is owed).
