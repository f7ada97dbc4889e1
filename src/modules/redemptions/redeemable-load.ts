import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { findPromotionTier, type PromotionTierRecord } from '../campaigns/promotion-tiers.service.js';
import { findProgramReward } from '../rewards/assignments.service.js';
import { findVoucherRow, type VoucherRow } from '../vouchers/vouchers.service.js';
import type { RedeemableBody } from './redemptions.schemas.js';

/**
 * The load stage: each requested redeemable read with one query (a voucher with its campaign's
 * name; a promotion tier through the campaigns module), never per item. What is not found
 * stays null: the check stage turns it into resource_not_found.
 */
export interface LoadedRedeemable {
  /** Its position in the request's `redeemables`. */
  index: number;
  body: RedeemableBody;
  voucher: VoucherRow | null;
  tier: PromotionTierRecord | null;
  /** A loyalty card's reward (`reward.id`), when it is assigned to the card's program. */
  reward: ProgramReward | null;
}

export type ProgramReward = NonNullable<Awaited<ReturnType<typeof findProgramReward>>>;

async function rewardOf(db: Kysely<Database>, voucher: VoucherRow | null, body: RedeemableBody): Promise<ProgramReward | null> {
  if (voucher?.type !== 'LOYALTY_CARD' || !body.reward?.id || voucher.campaign_id === null) return null;
  return (await findProgramReward(db, voucher.campaign_id, body.reward.id)) ?? null;
}

/**
 * The voucher as a request sees it: what live session locks hold (sql/0020) is not there, so
 * the checks refuse what only a reservation left, as the guarded claims would.
 */
function available(voucher: VoucherRow): VoucherRow {
  const { reserved_quantity: quantity, reserved_credits: credits, reserved_points: points } = voucher;
  if (quantity === 0 && credits === 0 && points === 0) return voucher;
  return {
    ...voucher,
    redeemed_quantity: voucher.redeemed_quantity + quantity,
    gift_balance: voucher.gift_balance === null ? null : voucher.gift_balance - credits,
    loyalty_balance: voucher.loyalty_balance === null ? null : voucher.loyalty_balance - points,
  };
}

export async function loadRedeemables(db: Kysely<Database>, bodies: RedeemableBody[]): Promise<LoadedRedeemable[]> {
  const loaded: LoadedRedeemable[] = [];
  for (const [index, body] of bodies.entries()) {
    const found = body.object === 'voucher' ? await findVoucherRow(db, body.id) : undefined;
    const voucher = found ? available(found) : null;
    const tier = body.object === 'promotion_tier' ? ((await findPromotionTier(db, body.id)) ?? null) : null;
    loaded.push({ index, body, voucher, tier, reward: await rewardOf(db, voucher, body) });
  }
  return loaded;
}

/** The related object a redemption of it names: the voucher's id, or the tier's (the request's id when unknown). */
export function relatedObjectOf(loaded: LoadedRedeemable): { type: 'voucher' | 'promotion_tier'; id: string; campaignId: string | null } {
  if (loaded.voucher) return { type: 'voucher', id: loaded.voucher.id, campaignId: loaded.voucher.campaign_id };
  if (loaded.tier) return { type: 'promotion_tier', id: loaded.tier.tier.id, campaignId: loaded.tier.campaign.id };
  return { type: loaded.body.object === 'promotion_tier' ? 'promotion_tier' : 'voucher', id: loaded.body.id, campaignId: null };
}

/** Its category for the stacking rules (the voucher's or the tier's). */
export function categoryOf(loaded: LoadedRedeemable): { id: string; hierarchy: number } | null {
  const id = loaded.voucher?.category_id ?? loaded.tier?.tier.category_id ?? null;
  return id === null ? null : { id, hierarchy: 0 };
}
