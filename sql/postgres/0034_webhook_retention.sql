-- The PostgreSQL twin of sql/0034_webhook_retention.sql: deliveries by event, for the
-- webhooks' retention sweep (seq last: the row key SQLite's index carries).
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq, seq);
