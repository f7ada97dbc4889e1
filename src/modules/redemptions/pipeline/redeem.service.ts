import type { Tx } from '../../../db/engine.js';
import type { Kysely } from 'kysely';
import type { Deps } from '../../../app/deps.js';
import type { Database } from '../../../db/database.js';
import type { Actor } from '../../../lib/actor.js';
import { isoNow } from '../../../lib/clock.js';
import { AppError, notFound } from '../../../lib/errors.js';
import { findPromotionStack } from '../../campaigns/index.js';
import { newId, timeOrderedId } from '../../../lib/ids.js';
import { inapplicableItem, skippedItem } from './redemption-answer.presenter.js';
import { presentWrittenRedemption } from '../redemptions.presenter.js';
import { STORED, type PipelineContext } from './plan-basis.service.js';
import { planStack, type Customer, type Plan } from './redemption-plan.service.js';
import { Refusal } from './redemption-refusal.rules.js';
import { failedRow, type RowContext } from './redemption-rows.rules.js';
import { writeFailure, writeRedemption, type RedemptionWritten } from './redemption-write.service.js';
import type { StackableBody } from './redemptions.schemas.js';
import { getStackingRules } from '../../stacking-rules/index.js';
import { customerOf } from './redemption-customer.service.js';
import { anyExpiredLocks, consumeSession, releaseExpiredLocks, withSessionKey } from '../../sessions/index.js';

type RedeemDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/**
 * POST /v1/redemptions and /client/v1/redemptions (the reference's "Redeem Stackable Discounts" and "Redeem Stackable Discounts (client-side)", voucherify-facts 1.17): the
 * pipeline's stages in ONE write transaction (BEGIN IMMEDIATE; nothing in it awaits anything
 * but its own queries), so what the checks read is what the guarded statements change. A
 * refused request (all-or-nothing mode, or a lost race) rolls that transaction back and writes
 * only the failed redemption (rf_) and its event, then answers 400 with the failure's key.
 */
/**
 * The request's redeemables, checked (each once; a promotion_stack alone) and with a promotion
 * stack replaced by its tiers, in the stack's order: from here on they are tier redeemables.
 */
export async function redeemablesOf(db: Kysely<Database>, body: StackableBody): Promise<StackableBody> {
  const seen = new Set<string>();
  for (const { object, id } of body.redeemables) {
    const key = `${object}\u0000${id}`;
    if (seen.has(key)) throw new AppError('duplicated_redeemables', `${object} ${id} is given more than once`);
    seen.add(key);
  }
  const stacks = body.redeemables.filter((r) => r.object === 'promotion_stack');
  if (stacks.length > 0 && body.redeemables.length > 1)
    throw new AppError('invalid_redeemables', 'A promotion_stack must be the only redeemable of a request');
  const [stack] = stacks;
  if (!stack) return body;
  const found = await findPromotionStack(db, stack.id);
  if (!found) throw notFound('promotion_stack', stack.id);
  return { ...body, redeemables: found.tier_ids.map((id) => ({ object: 'promotion_tier' as const, id })) };
}

export function rowContext(
  body: StackableBody,
  actor: Actor,
  at: string,
  customer: Customer | null,
  orderId: string | null,
): RowContext {
  return {
    at,
    customer,
    customerSnapshot: customer ? JSON.stringify(customer) : null,
    actor,
    orderId,
    trackingId: body.tracking_id ?? customer?.source_id ?? null,
    metadata: body.metadata ?? null,
    sessionKey: body.session ? (body.session.key ?? newId('ssn_')) : null,
  };
}

/**
 * The lists of inapplicable and skipped redeemables are left out when empty, as the validation's are (the reference's examples).
 * Built once the transaction has ended: the writer is not held while the answer is presented.
 */
function answer({ plan, written }: Redeemed, requestId: string) {
  const inapplicable = plan.inapplicable.map((i) => inapplicableItem(i.loaded, i.failure, requestId));
  const skipped = plan.skipped.map((s) => skippedItem(s.loaded, s.key));
  return {
    redemptions: written.children(),
    parent_redemption: written.parent ? presentWrittenRedemption(written.parent, written.order) : null,
    order: written.order,
    ...(inapplicable.length > 0 ? { inapplicable_redeemables: inapplicable } : {}),
    ...(skipped.length > 0 ? { skipped_redeemables: skipped } : {}),
  };
}
export type RedeemAnswer = ReturnType<typeof answer>;

/** What the transaction did: the plan it made and the records it wrote. */
interface Redeemed {
  plan: Plan;
  written: RedemptionWritten;
}

/** How a request redeems: `single`, one redeemable with no parent redemption (the legacy endpoints). */
export interface RedeemShape {
  single?: boolean;
}

async function redeemIn(
  deps: RedeemDeps,
  trx: Tx,
  ctx: PipelineContext,
  body: StackableBody,
  expiredLocks: boolean,
  shape: RedeemShape,
): Promise<Redeemed> {
  if (expiredLocks) await releaseExpiredLocks(trx, ctx.at);
  // The session's reservations come free for this redemption's own guarded claims, just below.
  if (body.session?.key) await consumeSession(trx, body.session.key, ctx.at);
  const plan = await planStack(trx, ctx, body, STORED);
  const first = plan.inapplicable[0];
  if (first && (ctx.rules.redeemables_application_mode === 'ALL' || plan.applied.length === 0))
    throw new Refusal(first.loaded, first.failure);
  const skipped = plan.skipped[0];
  // A single redemption (legacy call) that the stacking rules skip has nothing to write: refused, the transaction rolled back.
  if (shape.single && plan.applied.length === 0 && skipped)
    throw new AppError(
      'invalid_redeemables',
      `${skipped.loaded.body.object} ${skipped.loaded.body.id} is skipped by the stacking rules: ${skipped.key}`,
    );
  const written = await writeRedemption(
    deps,
    trx,
    plan,
    rowContext(body, ctx.actor, ctx.at, plan.customer, plan.order?.id ?? null),
    shape.single,
  );
  return { plan, written };
}

/** The refusal's failed redemption and event, in a transaction of their own; the 400 that answers it. */
async function refuse(
  deps: RedeemDeps,
  ctx: PipelineContext,
  body: StackableBody,
  refusal: Refusal,
): Promise<AppError> {
  const id = timeOrderedId('rf_', ctx.at);
  await deps.db.transaction().execute(async (trx) => {
    const customer = await customerOf(trx, ctx, body);
    const rowCtx = rowContext(body, ctx.actor, ctx.at, customer, null);
    await writeFailure(trx, failedRow(id, refusal.loaded, refusal.failure, rowCtx), refusal.loaded, rowCtx);
  });
  return new AppError(refusal.failure.key, refusal.message, { resource_id: id, resource_type: 'redemption' });
}

export async function redeemStackable(
  deps: RedeemDeps,
  actor: Actor,
  body: StackableBody,
  shape: RedeemShape = {},
): Promise<RedeemAnswer> {
  body = await redeemablesOf(deps.db, body);
  return withSessionKey(deps, body.session?.key ?? null, () => redeemWith(deps, actor, body, shape));
}

async function redeemWith(
  deps: RedeemDeps,
  actor: Actor,
  body: StackableBody,
  shape: RedeemShape,
): Promise<RedeemAnswer> {
  const ctx: PipelineContext = {
    actor,
    at: isoNow(deps.clock),
    seams: deps.seams,
    rules: await getStackingRules(deps.db),
  };
  // Read before the transaction, on the reader: the writer's turn is the scarce one.
  const expiredLocks = await anyExpiredLocks(deps.db, ctx.at);
  try {
    const redeemed = await deps.db.transaction().execute((trx) => redeemIn(deps, trx, ctx, body, expiredLocks, shape));
    return answer(redeemed, ctx.actor.request_id);
  } catch (error) {
    if (error instanceof Refusal) throw await refuse(deps, ctx, body, error);
    throw error;
  }
}
