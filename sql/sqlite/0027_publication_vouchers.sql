-- Publications of several vouchers (`campaign: {name, count}` with count 2..50; issue 14): every
-- voucher given, in the order given, as a JSON array of {id, code}. NULL for a publication of one
-- voucher, which its voucher_id and voucher_code name. The list's voucher columns (voucher_id,
-- voucher_code, voucher_type, campaign) hold the first voucher of a multi-voucher publication, so
-- its filters and orders see it by that one; voucher_snapshot is NULL for it (the reference
-- answers `vouchers`, not `voucher`). No personal data.
ALTER TABLE publications ADD COLUMN vouchers TEXT CHECK (vouchers IS NULL OR json_type(vouchers) = 'array');
