import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { isoNow } from '../../../lib/clock.js';
import { newId } from '../../../lib/ids.js';
import { emit } from '../../events/index.js';
import { calculatedOrder, type CalculatedOrderObject } from './calculated-order.rules.js';
import { redeemablesOf } from './redeem.service.js';
import { inapplicableItem, skippedItem } from './redemption-answer.presenter.js';
import { customerOf } from './redemption-customer.service.js';
import { PREVIEWED, type PipelineContext } from './plan-basis.service.js';
import { planStack, type AppliedRedeemable, type Plan } from './redemption-plan.service.js';
import type { StackableBody } from './redemptions.schemas.js';
import { getStackingRules } from '../../stacking-rules/index.js';
import {
  releaseExpiredLocks,
  releaseExpiredLocksIfAny,
  setAsideSession,
  withSessionKey,
} from '../../sessions/index.js';
import { holdSession, sessionLockOf, type SessionLock } from './session-lock.service.js';

/**
 * POST /v1/validations and /client/v1/validations: the redemption pipeline without its write
 * stage, from reads alone. The customer and the order are previewed (PREVIEWED: the same
 * lookups, drafts and checks as the upserts a redemption runs, writing nothing), so the answer
 * is exactly what a redemption would do now. Only these are written: expired session locks
 * are released when there are some (as any request does), a LOCK session's holdings, and the
 * customer (when one is sent) with its customer.validation.succeeded|failed event.
 */
type ValidateDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

class Rollback extends Error {
  constructor(readonly plan: Plan) {
    super('validation: rolled back');
  }
}

/** A plan's order as a validation answers it (a new order has no id: nothing is kept). */
export function orderOfValidation(
  plan: Plan,
  figures: AppliedRedeemable['order'] | Plan['final'],
): CalculatedOrderObject | null {
  if (!plan.order || !figures) return null;
  const order = calculatedOrder(plan.order, figures, plan.order.redemptions ?? {});
  if (!plan.orderCreated) return order;
  const { id: _id, ...unsaved } = order;
  return unsaved as CalculatedOrderObject;
}

function resultOf(applied: AppliedRedeemable): Record<string, unknown> {
  const { voucher, tier, body } = applied.loaded;
  if (voucher?.type === 'GIFT_VOUCHER')
    return { gift: { balance: voucher.gift_balance ?? 0, credits: applied.effect?.credits_used ?? 0 } };
  if (voucher?.type === 'LOYALTY_CARD') return { loyalty_card: { points: body.reward?.points ?? 0 } };
  const discount = voucher?.discount
    ? JSON.parse(voucher.discount)
    : tier
      ? (JSON.parse(tier.tier.action) as { discount?: unknown }).discount
      : undefined;
  return discount ? { discount } : {};
}

function applicableItem(plan: Plan, applied: AppliedRedeemable) {
  return {
    status: 'APPLICABLE' as const,
    id: applied.loaded.body.id,
    object: applied.loaded.body.object,
    ...(plan.order ? { order: orderOfValidation(plan, applied.order) } : {}),
    applicable_to: applied.rules.applicable_to,
    inapplicable_to: applied.rules.inapplicable_to,
    result: resultOf(applied),
  };
}

function answer(plan: Plan, ctx: PipelineContext, body: StackableBody, lock: SessionLock | null) {
  const inapplicable = plan.inapplicable.map((i) => inapplicableItem(i.loaded, i.failure, ctx.actor.request_id));
  const skipped = plan.skipped.map((s) => skippedItem(s.loaded, s.key));
  return {
    id: newId('valid_'),
    valid: isValid(plan, ctx),
    redeemables: [...plan.applied.map((a) => applicableItem(plan, a)), ...inapplicable, ...skipped],
    // The real API leaves each list out when it is empty (its recorded answers never show []).
    ...(skipped.length > 0 ? { skipped_redeemables: skipped } : {}),
    ...(inapplicable.length > 0 ? { inapplicable_redeemables: inapplicable } : {}),
    ...(plan.order ? { order: orderOfValidation(plan, plan.final) } : {}),
    tracking_id: body.tracking_id ?? plan.customer?.source_id ?? null,
    ...(lock
      ? { session: lock }
      : body.session
        ? { session: { key: body.session.key ?? newId('ssn_'), type: 'LOCK' } }
        : {}),
    stacking_rules: ctx.rules,
  };
}

const isValid = (plan: Plan, ctx: PipelineContext): boolean =>
  ctx.rules.redeemables_application_mode === 'ALL' ? plan.inapplicable.length === 0 : plan.applied.length > 0;

/**
 * A LOCK session's plan, in one write transaction: the session's own holdings are set aside
 * (free to it), and held anew when the plan is valid; an invalid one rolls back, so it holds
 * nothing and the session keeps what it held.
 */
async function planAndHold(
  deps: ValidateDeps,
  ctx: PipelineContext,
  body: StackableBody,
  lock: SessionLock,
): Promise<Plan> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      await releaseExpiredLocks(trx, ctx.at);
      await setAsideSession(trx, lock.key);
      const plan = await planStack(trx, ctx, body, PREVIEWED);
      if (!isValid(plan, ctx)) throw new Rollback(plan);
      await holdSession(trx, lock, plan, ctx.at);
      return plan;
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
    return error.plan;
  }
}

/** The plan from reads alone (no write transaction unless a session lock expired). */
async function planFromReads(deps: ValidateDeps, ctx: PipelineContext, body: StackableBody): Promise<Plan> {
  await releaseExpiredLocksIfAny(deps, ctx.at);
  return planStack(deps.db, ctx, body, PREVIEWED);
}

export async function validateStackable(deps: ValidateDeps, actor: Actor, body: StackableBody) {
  return (await validateWithPlan(deps, actor, body)).answer;
}

/** The validation's answer with the plan it was made from (the legacy answers present more of it). */
export async function validateWithPlan(deps: ValidateDeps, actor: Actor, body: StackableBody) {
  body = await redeemablesOf(deps.db, body);
  const lock = sessionLockOf(body);
  return withSessionKey(deps, lock?.key ?? null, () => validateIn(deps, actor, body, lock));
}

async function validateIn(deps: ValidateDeps, actor: Actor, body: StackableBody, lock: SessionLock | null) {
  const ctx = await contextOf(deps, actor);
  const plan = lock ? await planAndHold(deps, ctx, body, lock) : await planFromReads(deps, ctx, body);
  const result = answer(plan, ctx, body, lock);
  await recordValidation(deps, ctx, body, { id: result.id, valid: result.valid });
  return { answer: result, plan };
}

const contextOf = async (deps: ValidateDeps, actor: Actor): Promise<PipelineContext> => ({
  actor,
  at: isoNow(deps.clock),
  seams: deps.seams,
  rules: await getStackingRules(deps.db),
});

/** The customer (when one is sent) and its customer.validation.succeeded|failed event. */
async function recordValidation(
  deps: ValidateDeps,
  ctx: PipelineContext,
  body: StackableBody,
  validation: { id: string; valid: boolean },
): Promise<void> {
  if (!body.customer) return;
  await deps.db.transaction().execute(async (trx) => {
    const customer = await customerOf(trx, ctx, body);
    if (!customer) return;
    const type = validation.valid ? 'customer.validation.succeeded' : 'customer.validation.failed';
    await emit(trx, {
      type,
      customer_id: customer.id,
      actor: ctx.actor,
      created_at: ctx.at,
      data: { customer, validation },
    });
  });
}

/**
 * Each of the body's redeemables validated alone against the same customer and order (the
 * legacy promotions validation: every available tier as if it were the only one), from reads
 * alone, with one validation event for them all (valid when any applies). No session.
 */
export async function validateEach(
  deps: ValidateDeps,
  actor: Actor,
  body: StackableBody,
): Promise<{ plans: Plan[]; trackingId: string | null }> {
  const ctx = await contextOf(deps, actor);
  await releaseExpiredLocksIfAny(deps, ctx.at);
  const plans: Plan[] = [];
  for (const redeemable of body.redeemables)
    plans.push(await planStack(deps.db, ctx, { ...body, redeemables: [redeemable] }, PREVIEWED));
  const valid = plans.some((plan) => plan.applied.length > 0);
  await recordValidation(deps, ctx, body, { id: newId('valid_'), valid });
  const customer = plans[0]?.customer ?? null;
  return { plans, trackingId: body.tracking_id ?? customer?.source_id ?? body.customer?.source_id ?? null };
}
