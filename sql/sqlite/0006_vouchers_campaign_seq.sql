-- Jobs over one campaign's vouchers (CAMPAIGN.VOUCHERS_UPDATE, CAMPAIGN.VOUCHERS_DELETE) walk
-- them in seq order, a portion at a time: `campaign_id = ? AND seq > ? AND seq <= ?`. With only
-- vouchers_campaign (campaign_id, created_at), each portion read every voucher of the campaign
-- to find its range (136 ms for 20 rows of a 1.2M-voucher campaign). This index holds each
-- campaign's vouchers in seq order, so a portion reads exactly its rows. A campaign's new
-- vouchers get higher seqs, so generation appends at the end of the campaign's range.
CREATE INDEX vouchers_campaign_seq ON vouchers (campaign_id, seq);
