-- GET /v1/vouchers filters (issue 14, point 3): each equality filter with each order
-- (created_at, updated_at, code) is a walk of one index, ending with seq (the rowid).
--
-- `customer` (the holder) across campaigns: vouchers_holder_* (0010) lead with campaign_id
-- after holder_id, so a holder's vouchers of every campaign would need a sort. Partial: a
-- generated or imported voucher has no holder, so these cost generation nothing.
CREATE INDEX vouchers_holder_any_created_at ON vouchers (holder_id, created_at) WHERE holder_id IS NOT NULL;
CREATE INDEX vouchers_holder_any_updated_at ON vouchers (holder_id, updated_at) WHERE holder_id IS NOT NULL;
CREATE INDEX vouchers_holder_any_code ON vouchers (holder_id, code) WHERE holder_id IS NOT NULL;

-- `category`: one index, newest or oldest first only (other orders with a category are refused
-- with 400): partial, so vouchers without a category (standalone ones without one, and every
-- voucher of a campaign without one) cost nothing, while a generated voucher of a campaign
-- with a category writes one more index entry (three, for every order, cost such a
-- generation about a third of its rate: the README's performance notes).
CREATE INDEX vouchers_category_created_at ON vouchers (category_id, created_at) WHERE category_id IS NOT NULL;
