import type { CategoryView } from '../categories/categories.presenter.js';
import type { AssignmentView } from '../validation-rules/index.js';
import { assignmentsList } from '../validation-rules/index.js';
import type { AppliedRedeemable, Plan } from '../redemptions/redemption-plan.js';
import { orderOfValidation } from '../redemptions/validate.service.js';
import type { Candidate } from './qualification-candidates.js';

/**
 * A qualified redeemable as the reference's QualificationsRedeemable: its id (a voucher's
 * code, a tier's id), object, created_at, result (the discount, a gift card's balance and the
 * credits it would use, a loyalty card's balance), the order after it alone, and what its
 * rules let it touch. `expand` adds: redeemable (metadata, name, banner, campaign name and
 * id), category (categories), validation_rules (validation_rules_assignments).
 */
export interface Qualified {
  candidate: Candidate;
  plan: Plan;
  applied: AppliedRedeemable;
}

export interface Expansions {
  redeemable: boolean;
  categories: Map<string, CategoryView> | null;
  assignments: Map<string, AssignmentView[]> | null;
}

function resultOf({ loaded, effect }: AppliedRedeemable): Record<string, unknown> {
  const { voucher } = loaded;
  if (voucher?.type === 'GIFT_VOUCHER') return { gift: { balance: voucher.gift_balance ?? 0, credits: effect?.credits_used ?? 0 } };
  if (voucher?.type === 'LOYALTY_CARD') return { loyalty_card: { points: voucher.loyalty_points ?? 0, balance: voucher.loyalty_balance ?? 0 } };
  return loaded.discount ? { discount: loaded.discount } : {};
}

function redeemableFields({ loaded }: AppliedRedeemable) {
  const { voucher, tier } = loaded;
  if (tier) {
    return { metadata: JSON.parse(tier.tier.metadata) as Record<string, unknown>, name: tier.tier.name, ...(tier.tier.banner === null ? {} : { banner: tier.tier.banner }), campaign_name: tier.campaign.name, campaign_id: tier.campaign.id };
  }
  return {
    metadata: JSON.parse(voucher!.metadata) as Record<string, unknown>,
    ...(voucher!.campaign_id === null ? {} : { campaign_name: voucher!.campaign_name, campaign_id: voucher!.campaign_id }),
  };
}

const objectIdOf = ({ loaded }: AppliedRedeemable): string => loaded.voucher?.id ?? (loaded.tier?.tier.id as string);
const categoryIdOf = ({ loaded }: AppliedRedeemable): string | null => loaded.voucher?.category_id ?? loaded.tier?.tier.category_id ?? null;

export function presentQualified({ candidate, plan, applied }: Qualified, expand: Expansions) {
  const categoryId = categoryIdOf(applied);
  const category = categoryId === null ? undefined : expand.categories?.get(categoryId);
  return {
    id: candidate.id,
    object: candidate.object,
    created_at: candidate.created_at,
    result: resultOf(applied),
    ...(plan.order ? { order: orderOfValidation(plan, applied.order) } : {}),
    applicable_to: applied.rules.applicable_to,
    inapplicable_to: applied.rules.inapplicable_to,
    ...(expand.redeemable ? redeemableFields(applied) : {}),
    ...(expand.categories ? { categories: category ? [category] : [] } : {}),
    ...(expand.assignments ? { validation_rules_assignments: assignmentsList(expand.assignments.get(objectIdOf(applied))) } : {}),
  };
}

/** What a page needs read for its expansions: the objects' ids and their categories' ids. */
export const expansionKeys = (page: Qualified[]) => ({ objectIds: page.map((q) => objectIdOf(q.applied)), categoryIds: page.map((q) => categoryIdOf(q.applied)) });

/** The applied discount of a redeemable alone (BEST_DEAL and LEAST_DEAL sort by it). */
export const appliedDiscountOf = ({ applied }: Qualified): number => applied.order?.total_applied_discount_amount ?? 0;
