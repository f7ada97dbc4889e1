import { presentValidity } from '../../engine/validity/index.js';
import { categoriesOf, type CategoryView } from '../categories/index.js';
import type { CampaignRow, PromotionTierRow } from './campaigns.repository.js';
import { assignmentsList, type RuleAssignmentView } from '../validation-rules/index.js';

/** Validation rule assignments by object id (validation-rules' assignmentsOfObjects). */
type Assignments = Map<string, RuleAssignmentView[]>;
const NONE: Assignments = new Map();

const bool = (n: number): boolean => n === 1;

/**
 * The optional fields of a campaign or tier that the real API leaves out of its answer while
 * unset (its get-campaign example has no `description`, dates, validity, `updated_at` or
 * `category`, but `category_id: null`; its recorded tiers leave out `updated_at`, the dates, the
 * validity and `category_id` while unset); set, they are answered in this place.
 */
const setFieldsOf = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null)) as { [K in keyof T]?: NonNullable<T[K]> };

export function presentPromotionTier(
  row: PromotionTierRow,
  campaign: CampaignRow,
  categories: Map<string, CategoryView>,
  assignments: Assignments = NONE,
) {
  return {
    id: row.id,
    created_at: row.created_at,
    ...setFieldsOf({ updated_at: row.updated_at }),
    name: row.name,
    banner: row.banner,
    action: JSON.parse(row.action) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    hierarchy: row.hierarchy,
    promotion_id: campaign.id,
    campaign: {
      id: campaign.id,
      start_date: campaign.start_date,
      expiration_date: campaign.expiration_date,
      active: bool(campaign.active),
      object: 'campaign' as const,
    },
    campaign_id: campaign.id,
    active: bool(row.active),
    ...setFieldsOf(presentValidity(row)),
    summary: { redemptions: { total_redeemed: 0 }, orders: { total_amount: 0, total_discount_amount: 0 } },
    object: 'promotion_tier' as const,
    validation_rule_assignments: assignmentsList(assignments.get(row.id)),
    ...setFieldsOf({ category_id: row.category_id }),
    categories: categoriesOf(row.category_id, categories),
  };
}

/** The campaign as the API answers it (voucherify-facts 3, create-campaign / list-campaigns). */
export function presentCampaign(
  row: CampaignRow,
  tiers: PromotionTierRow[],
  categories: Map<string, CategoryView>,
  assignments: Assignments = NONE,
) {
  const category = row.category_id === null ? undefined : categories.get(row.category_id);
  const promotion =
    row.campaign_type === 'PROMOTION'
      ? {
          promotion: {
            object: 'list' as const,
            data_ref: 'tiers' as const,
            tiers: tiers.map((tier) => presentPromotionTier(tier, row, categories, assignments)),
            total: tiers.length,
            has_more: false,
          },
        }
      : {};
  return {
    id: row.id,
    name: row.name,
    ...setFieldsOf({ description: row.description }),
    campaign_type: row.campaign_type,
    type: row.type,
    ...(row.voucher === null ? {} : { voucher: JSON.parse(row.voucher) as Record<string, unknown> }),
    ...(row.referral_program === null
      ? {}
      : { referral_program: JSON.parse(row.referral_program) as Record<string, unknown> }),
    ...promotion,
    auto_join: bool(row.auto_join),
    join_once: bool(row.join_once),
    use_voucher_metadata_schema: bool(row.use_voucher_metadata_schema),
    ...setFieldsOf({
      ...presentValidity(row),
      activity_duration_after_publishing: row.activity_duration_after_publishing,
    }),
    vouchers_count: row.vouchers_count,
    active: bool(row.active),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    created_at: row.created_at,
    ...setFieldsOf({ updated_at: row.updated_at, category: category?.name ?? null }),
    category_id: row.category_id,
    categories: categoriesOf(row.category_id, categories),
    creation_status: row.creation_status,
    vouchers_generation_status: row.vouchers_generation_status,
    protected: bool(row.protected),
    validation_rules_assignments: assignmentsList(assignments.get(row.id)),
    ...(row.loyalty_tiers_expiration === null
      ? {}
      : { loyalty_tiers_expiration: JSON.parse(row.loyalty_tiers_expiration) as Record<string, unknown> }),
    object: 'campaign' as const,
  };
}

export type CampaignView = ReturnType<typeof presentCampaign>;

const withoutNulls = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** The short campaign events carry (the reference's SimpleCampaign): set fields only. */
export function presentSimpleCampaign(c: CampaignView) {
  const voucher = c.voucher as { redemption?: { quantity: number | null } } | undefined;
  return withoutNulls({
    id: c.id,
    name: c.name,
    campaign_type: c.campaign_type,
    type: c.type,
    is_referral_code: false,
    voucher: voucher && {
      ...voucher,
      redemption: { quantity: voucher.redemption?.quantity ?? null, redeemed_quantity: 0 },
    },
    auto_join: c.auto_join,
    join_once: c.join_once,
    active: c.active,
    category_id: c.category_id,
    category: c.category,
    categories: c.categories,
    metadata: c.metadata,
    start_date: c.start_date,
    expiration_date: c.expiration_date,
    description: c.description,
    created_at: c.created_at,
    updated_at: c.updated_at,
    object: c.object,
  });
}
