import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { notFound } from '../../../lib/errors.js';
import { findPromotionTier } from '../../campaigns/index.js';
import { findVoucherRow, getVoucher } from '../../vouchers/index.js';
import { stackableOf, type LegacyBody, type LegacyTarget } from './legacy.schemas.js';
import { pointsOf } from '../pipeline/loyalty-spend.service.js';
import { redeemStackable } from '../pipeline/redeem.service.js';
import type { AppliedRedeemable } from '../pipeline/redemption-plan.service.js';
import { validateWithPlan } from '../pipeline/validate.service.js';

/**
 * The single-redeemable calls of older integrations (docs/api.md "Redemptions and validations"):
 * each is the stackable pipeline with its one redeemable, presented as the legacy answer.
 * - validate (POST /v1/vouchers/{code}/validate, GET /client/v1/validate): the voucher
 *   validation object (`valid`, `code`, `discount` | `gift` | `loyalty` + `reward`, `order`,
 *   `applicable_to`, ...); invalid is HTTP 200 `valid: false` with the failure's `error` and
 *   `reason` (its message), as the real API answers.
 * - redeem (POST /v1/vouchers/{code}/redemption, /client/v1/redeem?code=,
 *   /v1/promotions/tiers/{id}/redemption): the one redemption, written with no parent, a
 *   voucher's with the voucher as GET /v1/vouchers/{code} shows it after the redemption. A
 *   refusal is the stackable 400 with its failed redemption (rf_).
 * An unknown code or tier is 404 `not_found` on both, before the pipeline (nothing written).
 */
type LegacyDeps = Parameters<typeof redeemStackable>[0];

async function requireTarget(deps: LegacyDeps, target: LegacyTarget): Promise<void> {
  const found =
    target.object === 'voucher'
      ? await findVoucherRow(deps.db, target.id)
      : await findPromotionTier(deps.db, target.id);
  if (!found) throw notFound(target.object, target.id);
}

/** Present only when set. */
const some = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** What the voucher gives: its discount, the gift card's amounts, or the loyalty card's reward and its cost. */
function benefitOf(applied: AppliedRedeemable): Record<string, unknown> {
  const voucher = applied.loaded.voucher!;
  if (voucher.type === 'GIFT_VOUCHER') {
    return {
      gift: {
        amount: voucher.gift_amount ?? 0,
        balance: voucher.gift_balance ?? 0,
        ...some('effect', voucher.gift_effect),
      },
    };
  }
  if (voucher.type === 'LOYALTY_CARD') {
    const points = pointsOf(applied);
    const chosen = applied.loaded.reward;
    return {
      loyalty: { points_cost: points },
      ...(chosen ? { reward: { id: chosen.reward.id, assignment_id: chosen.assignment.id, points } } : {}),
    };
  }
  return voucher.discount === null ? {} : { discount: JSON.parse(voucher.discount) as unknown };
}

type Validation = Awaited<ReturnType<typeof validateWithPlan>>;

function validAnswer({ answer }: Validation, applied: AppliedRedeemable) {
  const voucher = applied.loaded.voucher!;
  return {
    valid: true,
    code: voucher.code,
    applicable_to: applied.rules.applicable_to,
    inapplicable_to: applied.rules.inapplicable_to,
    ...some('campaign', voucher.campaign_name),
    ...some('campaign_id', voucher.campaign_id),
    metadata: JSON.parse(voucher.metadata) as Record<string, unknown>,
    ...benefitOf(applied),
    ...some('order', answer.order),
    ...('session' in answer ? { session: answer.session } : {}),
    ...some('start_date', voucher.start_date),
    ...some('expiration_date', voucher.expiration_date),
    tracking_id: answer.tracking_id,
  };
}

function invalidAnswer({ answer, plan }: Validation, code: string) {
  const voucher = (plan.inapplicable[0] ?? plan.skipped[0])?.loaded.voucher;
  const refused = answer.inapplicable_redeemables?.[0]?.result;
  const reason = refused?.details.message ?? answer.skipped_redeemables?.[0]?.result.details.message ?? null;
  return {
    valid: false,
    code,
    ...(refused ? { error: refused.error } : {}),
    tracking_id: answer.tracking_id,
    metadata: voucher ? (JSON.parse(voucher.metadata) as Record<string, unknown>) : {},
    reason,
  };
}

export async function validateVoucherLegacy(deps: LegacyDeps, actor: Actor, code: string, body: LegacyBody) {
  const target = { object: 'voucher', id: code } as const;
  await requireTarget(deps, target);
  const validation = await validateWithPlan(deps, actor, stackableOf(target, body));
  const [applied] = validation.plan.applied;
  return validation.answer.valid && applied ? validAnswer(validation, applied) : invalidAnswer(validation, code);
}

export async function redeemLegacy(
  deps: LegacyDeps & Pick<Deps, 'db'>,
  actor: Actor,
  target: LegacyTarget,
  body: LegacyBody,
) {
  await requireTarget(deps, target);
  const answer = await redeemStackable(deps, actor, stackableOf(target, body), { single: true });
  // One redeemable, applied (a refused or skipped one throws): its one redemption.
  const redemption = answer.redemptions[0]!;
  return target.object === 'voucher' ? { ...redemption, voucher: await getVoucher(deps, target.id) } : redemption;
}
