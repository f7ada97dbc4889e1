-- The webhooks' retention sweep (src/modules/webhooks/retention.sweep.ts) deletes an event once
-- no delivery is kept for it: it looks deliveries up by event. One more B-tree per delivery row
-- (an integer), against a scan of every delivery per deleted event.
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_seq);
