import type { Db } from '../../../db/engine.js';
import {
  applyStack,
  type CalculatedOrder,
  type Redeemable,
  type RedeemableResult,
} from '../../../engine/discounts/index.js';
import { noEffectSkips, selectStack, type SkipKey, type StackingRules } from '../../../engine/stacking/index.js';
import { AppError, invalidPayload } from '../../../lib/errors.js';
import type { Customer } from './redemption-customer.service.js';
import type { OrderObject, PendingOrder } from '../../orders/index.js';
import { discountOrderOf, unchangedFigures } from './calculated-order.rules.js';
import { failure, type Failure } from './redeemable-check.rules.js';
import { categoryOf, type LoadedRedeemable } from './redeemable-load.service.js';
import { planBasisOf, type PipelineContext, type PlanBasis, type PlanSubjects } from './plan-basis.service.js';
import { checkAll, type Checked, type Qualifying, type RulesPassed } from './plan-checks.service.js';
import type { RedeemableBody, StackableBody } from './redemptions.schemas.js';
import { engineRedeemable } from './redeemable-effect.rules.js';

export type { Customer };

export interface AppliedRedeemable {
  loaded: LoadedRedeemable;
  rules: RulesPassed;
  /** What the engine computed for it (null: it does not touch the order, a reward without coins). */
  effect: RedeemableResult | null;
  /** The order after it. */
  order: CalculatedOrder | null;
}

export interface Plan {
  customer: Customer | null;
  order: OrderObject | null;
  /** The request created the order (a validation answers it without an id: nothing is kept). */
  orderCreated: boolean;
  /** The new order the write stage inserts, redeemed (PlanBasis). */
  pendingOrder: PendingOrder | null;
  applied: AppliedRedeemable[];
  inapplicable: { loaded: LoadedRedeemable; failure: Failure }[];
  skipped: { loaded: LoadedRedeemable; key: SkipKey }[];
  /** The order after the whole stack. */
  final: CalculatedOrder | null;
}

/** The engine over the applied stack, in stacking order; redeemables without an order effect pass through. */
function compute(
  order: OrderObject | null,
  applied: { loaded: LoadedRedeemable; rules: RulesPassed }[],
  rules: StackingRules,
) {
  const effects = applied.map((a) => engineRedeemable(a.loaded, a.rules.items));
  const stack = effects.filter((e): e is Redeemable => e !== null);
  if (order === null) return { final: null, applied: applied.map((a) => ({ ...a, effect: null, order: null })) };
  const result = applyStack(discountOrderOf(order), stack, {
    products_application_mode: rules.redeemables_products_application_mode,
  });
  if (!result.ok) throw invalidPayload(result.problems.join('; '));
  let next = 0;
  let last = unchangedFigures(order);
  const withEffects = applied.map((a, i): AppliedRedeemable => {
    if (effects[i] === null) return { ...a, effect: null, order: last };
    const effect = result.redeemables[next++] as RedeemableResult;
    last = effect.order;
    return { ...a, effect, order: effect.order };
  });
  return { final: result.order, applied: withEffects };
}

/** Stack (the stacking rules) and compute (the engine) over what was checked. */
function stackOf(ctx: PipelineContext, basis: PlanBasis, checked: Checked[]): Plan {
  const inapplicable = checked.flatMap((c) => ('failure' in c ? [c] : []));
  const valid = checked.flatMap((c) =>
    'rules' in c ? [{ ...c, index: c.loaded.index, category: categoryOf(c.loaded) }] : [],
  );
  const selection = selectStack(valid, ctx.rules);
  const computed = compute(basis.order, selection.applied, ctx.rules);
  // What changed nothing is skipped or kept by the no-effect rule; the order is the same either way.
  const noEffect = new Set(
    noEffectSkips(
      computed.applied.map((a) => ({
        ...a,
        index: a.loaded.index,
        category: categoryOf(a.loaded),
        no_effect: a.effect?.no_effect ?? false,
      })),
      ctx.rules,
    ).map((s) => s.candidate.loaded),
  );
  const skipped = [
    ...selection.skipped.map((s) => ({ loaded: s.candidate.loaded, key: s.key })),
    ...[...noEffect].map((loaded) => ({ loaded, key: 'no_effect' as const })),
  ].sort((a, b) => a.loaded.index - b.loaded.index);
  const applied = computed.applied.filter((a) => !noEffect.has(a.loaded));
  return { ...basis, applied, inapplicable, skipped, final: computed.final };
}

/** The whole plan of a request: STORED subjects need a transaction, PREVIEWED ones any handle (planBasisOf). */
export async function planStack<D extends Db>(
  trx: D,
  ctx: PipelineContext,
  body: StackableBody,
  subjects: PlanSubjects<D>,
): Promise<Plan> {
  const basis = await planBasisOf(trx, ctx, body, subjects);
  return stackOf(ctx, basis, await checkAll(trx, ctx, basis, body.redeemables));
}

/** Redeemables planned together (a promotion stack's tiers) against a basis resolved already, checked as planEachAlone checks. */
export async function planTogether(
  trx: Db,
  ctx: PipelineContext,
  basis: PlanBasis,
  redeemables: RedeemableBody[],
  qualifying: Exclude<Qualifying, null>,
): Promise<Plan> {
  return stackOf(ctx, basis, await checkAll(trx, ctx, basis, redeemables, qualifying));
}

/**
 * Each redeemable planned alone against one customer and order (a qualification): loaded and
 * checked together (Qualifying says how), then stacked and computed one by one. A redeemable the engine refuses
 * (a discount it cannot compute) is inapplicable, not the request's error.
 */
export async function planEachAlone(
  trx: Db,
  ctx: PipelineContext,
  basis: PlanBasis,
  redeemables: RedeemableBody[],
  qualifying: Exclude<Qualifying, null>,
): Promise<Plan[]> {
  const checked = await checkAll(trx, ctx, basis, redeemables, qualifying);
  return checked.map((one) => {
    try {
      return stackOf(ctx, basis, [one]);
    } catch (error) {
      if (!(error instanceof AppError) || error.key !== 'invalid_payload') throw error;
      return {
        ...basis,
        applied: [],
        inapplicable: [{ loaded: one.loaded, failure: failure('invalid_order', error.details) }],
        skipped: [],
        final: null,
      };
    }
  });
}
