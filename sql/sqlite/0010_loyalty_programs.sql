-- Loyalty programs (LOYALTY_PROGRAM campaigns) and their members (loyalty cards with a holder).

-- The program's loyalty_tiers_expiration (the reference's LoyaltyTiersExpirationAll), JSON as
-- sent; null when none was given. Tiers read its qualification_type.
ALTER TABLE campaigns ADD COLUMN loyalty_tiers_expiration TEXT;

-- GET /v1/loyalties/{id}/members?customer=: a holder's cards of a program in each list order.
-- Partial: only held cards are in them, so generating (holderless) cards costs nothing here.
-- A `holder_id = ?` term implies `holder_id IS NOT NULL`, so the planner may use them.
CREATE INDEX vouchers_holder_created_at ON vouchers (holder_id, campaign_id, created_at) WHERE holder_id IS NOT NULL;
CREATE INDEX vouchers_holder_updated_at ON vouchers (holder_id, campaign_id, updated_at) WHERE holder_id IS NOT NULL;
CREATE INDEX vouchers_holder_code ON vouchers (holder_id, campaign_id, code) WHERE holder_id IS NOT NULL;

-- POST /v1/loyalties/{id}/members picks the program's oldest free card: with a million cards
-- already held, a walk of vouchers_campaign_seq would read them all first. Generation appends
-- to it in seq order (one ordered index, not a random one), and claiming a card removes it.
CREATE INDEX vouchers_free_cards ON vouchers (campaign_id, seq) WHERE holder_id IS NULL AND type = 'LOYALTY_CARD';
