import type { StackingRules } from '../../../engine/stacking/index.js';
import type { Actor } from '../../../lib/actor.js';
import type { Seams } from '../../../lib/seams.js';
import {
  type OrderObject,
  type CreateOrderBody,
  type PendingOrder,
  previewOrder,
  stageOrder,
  type OrderContext,
} from '../../orders/index.js';
import { customerOf, previewedCustomerOf, type Customer } from './redemption-customer.service.js';
import type { Db, Tx } from '../../../db/engine.js';
import type { StackableBody } from './redemptions.schemas.js';

/**
 * The stages before anything of the redemption is written, shared by redemptions and
 * validations: the customer and the order (upserted in the caller's transaction), load, check
 * (validity, then validation rules), stack (the stacking rules), compute (the engine). The
 * plan says what applies, what is inapplicable and why, what is skipped, and every order.
 */
export interface PipelineContext {
  actor: Actor;
  at: string;
  seams: Seams;
  rules: StackingRules;
}

/**
 * How the plan comes by the request's customer and order: upserted in the redemption's
 * transaction (STORED), or previewed from the same reads and checks (PREVIEWED: a validation
 * writes neither; its answer is what a redemption would store now).
 */
export interface PlanSubjects<D extends Db> {
  customer: (db: D, ctx: PipelineContext, body: StackableBody) => Promise<Customer | null>;
  /** The order; `ctx.customer` is the request's, which the order may name by id. */
  order: (
    db: D,
    ctx: OrderContext,
    input: CreateOrderBody,
  ) => Promise<{ order: OrderObject; created: boolean; pending?: PendingOrder | null }>;
}

/**
 * Stored: the customer and order are upserted, so only a transaction can plan with these. A
 * new order is left pending (stageOrder) for the write stage to insert once, redeemed.
 */
export const STORED: PlanSubjects<Tx> = { customer: customerOf, order: stageOrder };
/** Previewed: reads alone, inside a transaction or outside one. */
export const PREVIEWED: PlanSubjects<Db> = { customer: previewedCustomerOf, order: previewOrder };

async function orderOf<D extends Db>(
  trx: D,
  ctx: PipelineContext,
  body: StackableBody,
  customer: Customer | null,
  subjects: PlanSubjects<D>,
) {
  if (!body.order) return { order: null, created: false, pending: null };
  // The order belongs to the redeeming customer unless it names its own.
  const input = body.order.customer || !customer ? body.order : { ...body.order, customer: { id: customer.id } };
  const { order, created, pending } = await subjects.order(
    trx,
    { actor: ctx.actor, at: ctx.at, seams: ctx.seams, ...(customer ? { customer } : {}) },
    input,
  );
  return { order, created, pending: pending ?? null };
}

/** The request's customer and order, resolved once for every plan made against them. */
export interface PlanBasis {
  customer: Customer | null;
  order: OrderObject | null;
  orderCreated: boolean;
  /** A new order the redemption's write stage inserts (STORED only). */
  pendingOrder: PendingOrder | null;
}

/**
 * The plan's customer and order, by `subjects`: the handle is a transaction when they are
 * STORED (the type says so), any handle when PREVIEWED.
 */
export async function planBasisOf<D extends Db>(
  trx: D,
  ctx: PipelineContext,
  body: StackableBody,
  subjects: PlanSubjects<D>,
): Promise<PlanBasis> {
  const customer = await subjects.customer(trx, ctx, body);
  const { order, created, pending } = await orderOf(trx, ctx, body, customer, subjects);
  return { customer, order, orderCreated: created, pendingOrder: pending };
}
