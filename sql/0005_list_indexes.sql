-- An index for every list order and filter the API accepts (DESIGN.md 3: no request may hold
-- the main thread for long). Each one lets a page be read by walking an index in the order
-- asked, so a deep page costs its offset in index entries, never a sort of the whole set.
-- test/architecture/query-plans.test.ts reads EXPLAIN QUERY PLAN of every list variant.

-- GET /v1/vouchers: `updated_at` and `code` orders, alone and within a campaign (created_at
-- already has vouchers_created_at and vouchers_campaign). Every index ends with seq (the
-- rowid), the tie-breaker of every voucher order.
CREATE INDEX vouchers_updated_at ON vouchers (updated_at);
CREATE INDEX vouchers_campaign_updated_at ON vouchers (campaign_id, updated_at);
CREATE INDEX vouchers_campaign_code ON vouchers (campaign_id, code);

-- GET /v1/customers: each equality filter (email, name, city) in each order (created_at has
-- customers_email, _name and _city). Date-range filters on another field than the order are
-- checked during the ordered walk (see customers-list.repository.ts).
CREATE INDEX customers_email_updated_at ON customers (email, updated_at);
CREATE INDEX customers_email_source_id ON customers (email, source_id);
CREATE INDEX customers_name_updated_at ON customers (name, updated_at);
CREATE INDEX customers_name_source_id ON customers (name, source_id);
CREATE INDEX customers_city_updated_at ON customers (address_city, updated_at);
CREATE INDEX customers_city_source_id ON customers (address_city, source_id);

-- GET /v1/campaigns: the campaign_type filter in either order.
CREATE INDEX campaigns_type_created_at ON campaigns (campaign_type, created_at);
CREATE INDEX campaigns_type_updated_at ON campaigns (campaign_type, updated_at);
