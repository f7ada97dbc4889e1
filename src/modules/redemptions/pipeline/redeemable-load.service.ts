import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Discount } from '../../../engine/discounts/index.js';
import { findPromotionTiers, type PromotionTierRecord } from '../../campaigns/index.js';
import { findCatalogEntries } from '../../catalog/index.js';
import { categoriesById } from '../../categories/index.js';
import { findProgramReward } from '../../rewards/index.js';
import { findVoucherRowsByCode, type VoucherRow } from '../../vouchers/index.js';
import type { RedeemableBody } from './redemptions.schemas.js';

/**
 * The load stage: the request's vouchers read with one query (with their campaigns'
 * names), its promotion tiers in four through the campaigns module, never per item. What is not found
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
  /** Its discount (a discount voucher's, a tier's), parsed once. */
  discount: Discount | null;
  /** The voucher's or the tier's category, with its hierarchy (the stacking rules sort by it). */
  category: { id: string; hierarchy: number } | null;
  /** The price of each unit a UNIT discount adds, by SKU id or by product id (its unit_type). */
  unitPrices: Record<string, number>;
}

export type ProgramReward = NonNullable<Awaited<ReturnType<typeof findProgramReward>>>;

async function rewardOf(
  db: Kysely<Database>,
  voucher: VoucherRow | null,
  body: RedeemableBody,
): Promise<ProgramReward | null> {
  if (voucher?.type !== 'LOYALTY_CARD' || !body.reward?.id || voucher.campaign_id === null) return null;
  return (await findProgramReward(db, voucher.campaign_id, body.reward.id)) ?? null;
}

function discountOf(voucher: VoucherRow | null, tier: PromotionTierRecord | null): Discount | null {
  if (tier) return (JSON.parse(tier.tier.action) as { discount?: Discount }).discount ?? null;
  return voucher?.type === 'DISCOUNT_VOUCHER' && voucher.discount !== null
    ? (JSON.parse(voucher.discount) as Discount)
    : null;
}

/** The products and SKUs UNIT discounts add: their prices, in one catalog lookup for the whole request. */
async function unitPricesOf(db: Kysely<Database>, discounts: Array<Discount | null>): Promise<Record<string, number>> {
  type UnitRef = { unit_type?: string | null; sku?: { id: string } | null };
  const units = discounts.flatMap((d): UnitRef[] => (d?.type === 'UNIT' ? (d.units ?? [d]) : []));
  if (units.length === 0) return {};
  const productIds = units.flatMap((u) => (u.unit_type ? [u.unit_type] : []));
  const skuIds = units.flatMap((u) => (u.sku?.id ? [u.sku.id] : []));
  const { products, skus } = await findCatalogEntries(db, {
    productIds,
    skuIds,
    productSourceIds: [],
    skuSourceIds: [],
  });
  const prices: Record<string, number> = {};
  for (const product of products) if (product.price !== null) prices[product.id] = product.price;
  for (const sku of skus) {
    const price = sku.price ?? prices[sku.product_id];
    if (price !== undefined && price !== null) prices[sku.id] = price;
  }
  return prices;
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
  const found = [];
  const vouchers = await findVoucherRowsByCode(
    db,
    bodies.flatMap((body) => (body.object === 'voucher' ? [body.id] : [])),
  );
  const tiers = await findPromotionTiers(
    db,
    bodies.flatMap((body) => (body.object === 'promotion_tier' ? [body.id] : [])),
  );
  for (const [index, body] of bodies.entries()) {
    const row = body.object === 'voucher' ? vouchers.get(body.id) : undefined;
    const voucher = row ? available(row) : null;
    const tier = body.object === 'promotion_tier' ? (tiers.get(body.id) ?? null) : null;
    found.push({
      index,
      body,
      voucher,
      tier,
      reward: await rewardOf(db, voucher, body),
      discount: discountOf(voucher, tier),
    });
  }
  const categoryIds = found.map((f) => f.voucher?.category_id ?? f.tier?.tier.category_id ?? null);
  const categories = await categoriesById(db, categoryIds);
  const unitPrices = await unitPricesOf(
    db,
    found.map((f) => f.discount),
  );
  return found.map((f, i) => {
    const category = categoryIds[i] ? categories.get(categoryIds[i] as string) : undefined;
    return { ...f, category: category ? { id: category.id, hierarchy: category.hierarchy } : null, unitPrices };
  });
}

/** The related object a redemption of it names: the voucher's id, or the tier's (the request's id when unknown). */
export function relatedObjectOf(loaded: LoadedRedeemable): {
  type: 'voucher' | 'promotion_tier';
  id: string;
  campaignId: string | null;
} {
  if (loaded.voucher) return { type: 'voucher', id: loaded.voucher.id, campaignId: loaded.voucher.campaign_id };
  if (loaded.tier) return { type: 'promotion_tier', id: loaded.tier.tier.id, campaignId: loaded.tier.campaign.id };
  return {
    type: loaded.body.object === 'promotion_tier' ? 'promotion_tier' : 'voucher',
    id: loaded.body.id,
    campaignId: null,
  };
}

/** Its category for the stacking rules (the voucher's or the tier's). */
export const categoryOf = (loaded: LoadedRedeemable): { id: string; hierarchy: number } | null => loaded.category;
