-- A redemption's customer events (customer.redemption.succeeded and .failed) name its record
-- instead of copying it: their data ({customer, redemption, voucher, promotion_tier}) is the
-- record as written, rebuilt when the feed is read (issue 28: nothing written twice). Such a
-- row's `data` is '{}'; events written before keep their copy and a NULL here.
ALTER TABLE customer_events ADD COLUMN redemption_id TEXT;
