import type { CategoryView } from '../categories/index.js';
import { type RuleAssignmentView, assignmentsList } from '../validation-rules/index.js';
import { type AppliedRedeemable, type Plan, orderOfValidation } from '../redemptions/index.js';
import type { Candidate } from './qualification-candidates.service.js';

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
  /** The voucher or tier alone; null for a promotion stack (its tiers are the plan's `applied`). */
  applied: AppliedRedeemable | null;
}

export interface Expansions {
  redeemable: boolean;
  categories: Map<string, CategoryView> | null;
  assignments: Map<string, RuleAssignmentView[]> | null;
}

function resultOf({ loaded, effect }: AppliedRedeemable): Record<string, unknown> {
  const { voucher } = loaded;
  if (voucher?.type === 'GIFT_VOUCHER')
    return { gift: { balance: voucher.gift_balance ?? 0, credits: effect?.credits_used ?? 0 } };
  if (voucher?.type === 'LOYALTY_CARD')
    return { loyalty_card: { points: voucher.loyalty_points ?? 0, balance: voucher.loyalty_balance ?? 0 } };
  return loaded.discount ? { discount: loaded.discount } : {};
}

function redeemableFields({ loaded }: AppliedRedeemable) {
  const { voucher, tier } = loaded;
  if (tier) {
    return {
      metadata: JSON.parse(tier.tier.metadata) as Record<string, unknown>,
      name: tier.tier.name,
      ...(tier.tier.banner === null ? {} : { banner: tier.tier.banner }),
      campaign_name: tier.campaign.name,
      campaign_id: tier.campaign.id,
    };
  }
  return {
    metadata: JSON.parse(voucher!.metadata) as Record<string, unknown>,
    ...(voucher!.campaign_id === null
      ? {}
      : { campaign_name: voucher!.campaign_name, campaign_id: voucher!.campaign_id }),
  };
}

const objectIdOf = ({ loaded }: AppliedRedeemable): string => loaded.voucher?.id ?? (loaded.tier?.tier.id as string);
const categoryIdOf = ({ loaded }: AppliedRedeemable): string | null =>
  loaded.voucher?.category_id ?? loaded.tier?.tier.category_id ?? null;

/** One redeemable's fields: a voucher's or a tier's alone, or a stack's tier after those before it. */
function redeemableOf(
  plan: Plan,
  applied: AppliedRedeemable,
  identity: { id: string; object: string; created_at: string },
  expand: Expansions,
) {
  const categoryId = categoryIdOf(applied);
  const category = categoryId === null ? undefined : expand.categories?.get(categoryId);
  return {
    ...identity,
    result: resultOf(applied),
    ...(plan.order ? { order: orderOfValidation(plan, applied.order) } : {}),
    applicable_to: applied.rules.applicable_to,
    inapplicable_to: applied.rules.inapplicable_to,
    ...(expand.redeemable ? redeemableFields(applied) : {}),
    ...(expand.categories ? { categories: category ? [category] : [] } : {}),
    ...(expand.assignments
      ? { validation_rules_assignments: assignmentsList(expand.assignments.get(objectIdOf(applied))) }
      : {}),
  };
}

/** A promotion stack: the order after all its tiers, and each tier (QualificationsRedeemableBase). */
function stackOf({ candidate, plan }: Qualified, expand: Expansions) {
  const tiers = plan.applied.map((a) =>
    redeemableOf(
      plan,
      a,
      { id: a.loaded.tier!.tier.id, object: 'promotion_tier', created_at: a.loaded.tier!.tier.created_at },
      expand,
    ),
  );
  const campaign = plan.applied[0]?.loaded.tier?.campaign;
  return {
    id: candidate.id,
    object: candidate.object,
    created_at: candidate.created_at,
    result: {},
    ...(plan.order ? { order: orderOfValidation(plan, plan.final) } : {}),
    ...(expand.redeemable && campaign ? { campaign_name: campaign.name, campaign_id: campaign.id } : {}),
    redeemables: tiers,
  };
}

export function presentQualified(qualified: Qualified, expand: Expansions) {
  const { candidate, plan, applied } = qualified;
  if (applied === null) return stackOf(qualified, expand);
  return redeemableOf(
    plan,
    applied,
    { id: candidate.id, object: candidate.object, created_at: candidate.created_at },
    expand,
  );
}

const appliedOf = (page: Qualified[]): AppliedRedeemable[] =>
  page.flatMap((q) => (q.applied ? [q.applied] : q.plan.applied));

/** What a page needs read for its expansions: the objects' ids and their categories' ids (a stack's tiers'). */
export const expansionKeys = (page: Qualified[]) => ({
  objectIds: appliedOf(page).map(objectIdOf),
  categoryIds: appliedOf(page).map(categoryIdOf),
});

/** The applied discount of a redeemable alone, or of a stack's tiers together (BEST_DEAL and LEAST_DEAL sort by it). */
export const appliedDiscountOf = ({ applied, plan }: Qualified): number =>
  (applied ? applied.order : plan.final)?.total_applied_discount_amount ?? 0;
