-- A key's own budget of requests per minute (`promo keys create --rate-limit N`); NULL takes
-- the server's default (PROMO_RATE_LIMIT), and with neither the key is not limited.
ALTER TABLE api_keys ADD COLUMN rate_limit INTEGER CHECK (rate_limit IS NULL OR rate_limit > 0);
