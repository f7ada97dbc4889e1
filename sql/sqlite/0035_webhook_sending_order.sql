-- The webhooks' outbox, sent by fan-out (src/modules/webhooks/fanout.repository.ts): a change's
-- transaction writes only its event; the sender makes the deliveries, a batch of events at a
-- time, in event order, and keeps its place in webhook_fanout.
--
-- writer_xid orders both tables on PostgreSQL, where seq is handed out at insert, not at commit:
-- the id of the transaction that wrote the row. On SQLite it stays null (one writer commits at a
-- time: seq order is commit order), and the indexes hold it only so that both engines read
-- through the same ones.
ALTER TABLE webhook_events ADD COLUMN writer_xid INTEGER;
CREATE INDEX webhook_events_fanout ON webhook_events (writer_xid, seq);

ALTER TABLE webhook_deliveries ADD COLUMN writer_xid INTEGER;
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, writer_xid, seq) WHERE status = 'PENDING';

-- The fan-out's place: the last event it made deliveries for (events up to it have theirs).
-- One row. The events already here were written with their deliveries.
CREATE TABLE webhook_fanout (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  event_xid   INTEGER,
  event_seq   INTEGER NOT NULL
);
INSERT INTO webhook_fanout (id, event_xid, event_seq) VALUES (1, NULL, (SELECT coalesce(max(seq), 0) FROM webhook_events));
