import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { emit } from '../events/events.service.js';
import { calculatedOrder, type CalculatedOrderObject } from './calculated-order.js';
import { redeemablesOf } from './redeem.service.js';
import { inapplicableItem, skippedItem } from './redemption-answer.js';
import { customerOf } from './redemption-customer.js';
import { planStack, type AppliedRedeemable, type PipelineContext, type Plan } from './redemption-plan.js';
import type { StackableBody } from './redemptions.schemas.js';
import { getStackingRules } from '../stacking-rules/stacking-rules.service.js';
import { releaseExpiredLocks, setAsideSession, withSessionKey } from '../sessions/session-locks.service.js';
import { holdSession, sessionLockOf, type SessionLock } from './session-lock.js';

/**
 * POST /v1/validations and /client/v1/validations: the redemption pipeline without its write
 * stage. The stages run in a transaction that is rolled back at the end (the customer and
 * order upserts they share with redemptions leave nothing behind), so the answer is exactly
 * what a redemption would do now; then only the customer (when one is sent) and its
 * customer.validation.succeeded|failed event are written.
 */
type ValidateDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

class Rollback extends Error {
  constructor(readonly plan: Plan) {
    super('validation: rolled back');
  }
}

function orderOfValidation(plan: Plan, figures: AppliedRedeemable['order'] | Plan['final']): CalculatedOrderObject | null {
  if (!plan.order || !figures) return null;
  const order = calculatedOrder(plan.order, figures, plan.order.redemptions ?? {});
  if (!plan.orderCreated) return order;
  const { id: _id, ...unsaved } = order;
  return unsaved as CalculatedOrderObject;
}

function resultOf(applied: AppliedRedeemable): Record<string, unknown> {
  const { voucher, tier, body } = applied.loaded;
  if (voucher?.type === 'GIFT_VOUCHER') return { gift: { balance: voucher.gift_balance ?? 0, credits: applied.effect?.credits_used ?? 0 } };
  if (voucher?.type === 'LOYALTY_CARD') return { loyalty_card: { points: body.reward?.points ?? 0 } };
  const discount = voucher?.discount ? JSON.parse(voucher.discount) : tier ? (JSON.parse(tier.tier.action) as { discount?: unknown }).discount : undefined;
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
  const valid = ctx.rules.redeemables_application_mode === 'ALL' ? inapplicable.length === 0 : plan.applied.length > 0;
  return {
    id: newId('valid_'),
    valid,
    redeemables: [...plan.applied.map((a) => applicableItem(plan, a)), ...inapplicable, ...skipped],
    skipped_redeemables: skipped,
    inapplicable_redeemables: inapplicable,
    ...(plan.order ? { order: orderOfValidation(plan, plan.final) } : {}),
    tracking_id: body.tracking_id ?? plan.customer?.source_id ?? null,
    ...(lock ? { session: lock } : body.session ? { session: { key: body.session.key ?? newId('ssn_'), type: 'LOCK' } } : {}),
    stacking_rules: ctx.rules,
  };
}

/** The plan, in a transaction rolled back at once; the session's own reservations are free to it. */
async function planOnly(deps: ValidateDeps, ctx: PipelineContext, body: StackableBody, lock: SessionLock | null): Promise<Plan> {
  try {
    await deps.db.transaction().execute(async (trx) => {
      await releaseExpiredLocks(trx, ctx.at);
      if (lock) await setAsideSession(trx, lock.key);
      throw new Rollback(await planStack(trx, ctx, body));
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
    return error.plan;
  }
  throw new Error('unreachable: the plan transaction always rolls back');
}

export async function validateStackable(deps: ValidateDeps, actor: Actor, body: StackableBody) {
  body = await redeemablesOf(deps.db, body);
  const lock = sessionLockOf(body);
  return withSessionKey(deps, lock?.key ?? null, () => validateIn(deps, actor, body, lock));
}

async function validateIn(deps: ValidateDeps, actor: Actor, body: StackableBody, lock: SessionLock | null) {
  const ctx: PipelineContext = { actor, at: isoNow(deps.clock), seams: deps.seams, rules: await getStackingRules(deps.db) };
  const plan = await planOnly(deps, ctx, body, lock);
  const result = answer(plan, ctx, body, lock);
  // A valid validation holds what it would take; an invalid one holds nothing.
  if (lock && result.valid) await holdSession(deps, lock, plan, ctx.at);
  if (body.customer) {
    await deps.db.transaction().execute(async (trx) => {
      const customer = await customerOf(trx, ctx, body);
      if (!customer) return;
      const type = result.valid ? 'customer.validation.succeeded' : 'customer.validation.failed';
      await emit(trx, { type, customer_id: customer.id, actor, created_at: ctx.at, data: { customer, validation: { id: result.id, valid: result.valid } } });
    });
  }
  return result;
}
