-- The webhooks' sending order is (writer_xid, seq) on both engines (src/modules/webhooks/
-- queue.repository.ts). On PostgreSQL writer_xid is the id of the transaction that wrote the
-- delivery, since seq there is handed out at insert, not at commit; on SQLite it stays null
-- (one writer commits at a time: seq order is commit order), and the pending index orders by
-- it only so that both engines read their queues through the same index.
ALTER TABLE webhook_deliveries ADD COLUMN writer_xid INTEGER;
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, writer_xid, seq) WHERE status = 'PENDING';
