-- The PostgreSQL twin of sql/sqlite/0035_webhook_sending_order.sql. Here writer_xid is filled by
-- its default: the id (xid8, as a bigint) of the transaction that writes the row. The fan-out
-- and the sender read only below the horizon of running transactions, in (writer_xid, seq)
-- order (src/modules/webhooks/fanout.repository.ts, queue.repository.ts): a row that appears
-- later then always sorts after those read before it, whatever order seq was handed out in.
-- Rows already here take this migration's xid: among them the order is seq's. NULLS FIRST is
-- SQLite's ascending order (the parity test compares them; PostgreSQL's rows are never null).
ALTER TABLE webhook_events ADD COLUMN writer_xid bigint DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX webhook_events_fanout ON webhook_events (writer_xid NULLS FIRST, seq);

ALTER TABLE webhook_deliveries ADD COLUMN writer_xid bigint DEFAULT (pg_current_xact_id()::text::bigint);
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, writer_xid NULLS FIRST, seq) WHERE status = 'PENDING';

CREATE TABLE webhook_fanout (
  id          bigint PRIMARY KEY CHECK (id = 1),
  event_xid   bigint,
  event_seq   bigint NOT NULL
);
INSERT INTO webhook_fanout (id, event_xid, event_seq)
  SELECT 1, max(writer_xid), coalesce(max(seq), 0) FROM webhook_events;
