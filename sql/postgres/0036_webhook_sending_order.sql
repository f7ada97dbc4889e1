-- The PostgreSQL twin of sql/sqlite/0036_webhook_sending_order.sql. Here writer_xid is filled
-- by its default: the id (xid8, as a bigint) of the transaction that writes the delivery, the
-- first key of a queue's sending order. The sender reads a queue only below the horizon of
-- running transactions (src/modules/webhooks/queue.repository.ts): a delivery that appears
-- later then always sorts after those it has seen, whatever order seq was handed out in.
-- Rows already here take this migration's xid: among them the order is seq's. NULLS FIRST is
-- SQLite's ascending order (the parity test compares them; PostgreSQL's rows are never null).
ALTER TABLE webhook_deliveries ADD COLUMN writer_xid bigint DEFAULT (pg_current_xact_id()::text::bigint);
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, writer_xid NULLS FIRST, seq) WHERE status = 'PENDING';
