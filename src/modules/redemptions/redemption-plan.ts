import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import {
  applyStack,
  type CalculatedOrder,
  type Redeemable,
  type RedeemableResult,
} from '../../engine/discounts/index.js';
import { noEffectSkips, selectStack, type SkipKey, type StackingRules } from '../../engine/stacking/index.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import type { Seams } from '../../lib/seams.js';
import { customerOf, previewedCustomerOf, type Customer } from './redemption-customer.js';
import type { OrderObject } from '../orders/orders.presenter.js';
import { API_UPSERT, previewOrder, upsertOrder, type OrderContext } from '../orders/orders.service.js';
import type { CreateOrderBody } from '../orders/orders.schemas.js';
import { discountOrderOf, unchangedFigures } from './calculated-order.js';
import { checkRedeemable, failure, type Failure } from './redeemable-check.js';
import { categoryOf, loadRedeemables, type LoadedRedeemable } from './redeemable-load.js';
import {
  checkValidationRules,
  readRuleAssignments,
  type RuleAssignments,
  type RulesInput,
  type RulesOutcome,
} from '../validation-rules/index.js';
import { countCustomerRedemptions } from './redemptions.repository.js';
import type { RedeemableBody, StackableBody } from './redemptions.schemas.js';
import { engineRedeemable } from './redeemable-effect.js';

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

export type { Customer };
type RulesPassed = Extract<RulesOutcome, { ok: true }>;

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
  applied: AppliedRedeemable[];
  inapplicable: { loaded: LoadedRedeemable; failure: Failure }[];
  skipped: { loaded: LoadedRedeemable; key: SkipKey }[];
  /** The order after the whole stack. */
  final: CalculatedOrder | null;
}

/**
 * How the plan comes by the request's customer and order: upserted in the redemption's
 * transaction (STORED), or previewed from the same reads and checks (PREVIEWED: a validation
 * writes neither; its answer is what a redemption would store now).
 */
export interface PlanSubjects {
  customer(db: Kysely<Database>, ctx: PipelineContext, body: StackableBody): Promise<Customer | null>;
  /** The order; `ctx.customer` is the request's, which the order may name by id. */
  order(
    db: Kysely<Database>,
    ctx: OrderContext,
    input: CreateOrderBody,
  ): Promise<{ order: OrderObject; created: boolean }>;
}

export const STORED: PlanSubjects = {
  customer: customerOf,
  order: (db, ctx, input) => upsertOrder(db, ctx, input, API_UPSERT),
};
export const PREVIEWED: PlanSubjects = { customer: previewedCustomerOf, order: previewOrder };

async function orderOf(
  trx: Kysely<Database>,
  ctx: PipelineContext,
  body: StackableBody,
  customer: Customer | null,
  subjects: PlanSubjects,
) {
  if (!body.order) return { order: null, created: false };
  // The order belongs to the redeeming customer unless it names its own.
  const input = body.order.customer || !customer ? body.order : { ...body.order, customer: { id: customer.id } };
  const { order, created } = await subjects.order(
    trx,
    { actor: ctx.actor, at: ctx.at, seams: ctx.seams, ...(customer ? { customer } : {}) },
    input,
  );
  return { order, created };
}

/** What validation rules of a redeemable apply: those assigned to the voucher or tier, and to its campaign. */
function subjectsOf(loaded: LoadedRedeemable): RulesInput['subjects'] {
  const subjects: RulesInput['subjects'] = [];
  if (loaded.voucher) subjects.push({ object: 'voucher', id: loaded.voucher.id });
  if (loaded.voucher?.campaign_id) subjects.push({ object: 'campaign', id: loaded.voucher.campaign_id });
  if (loaded.tier)
    subjects.push(
      { object: 'promotion_tier', id: loaded.tier.tier.id },
      { object: 'campaign', id: loaded.tier.campaign.id },
    );
  return subjects;
}

function rulesInputOf(
  trx: Kysely<Database>,
  loaded: LoadedRedeemable,
  customer: Customer | null,
  order: OrderObject | null,
  assignments: RuleAssignments,
): RulesInput {
  const redeemedId = loaded.voucher?.id ?? loaded.tier?.tier.id;
  return {
    subjects: subjectsOf(loaded),
    assignments,
    customerRedemptions:
      customer && redeemedId ? () => countCustomerRedemptions(trx, customer.id, redeemedId) : undefined,
    customer: customer && {
      id: customer.id,
      source_id: customer.source_id ?? null,
      metadata: (customer.metadata ?? {}) as Record<string, unknown>,
    },
    order: order && {
      amount: order.amount,
      metadata: order.metadata,
      items: order.items.map((item) => ({
        product_id: item.product_id ?? null,
        sku_id: item.sku_id ?? null,
        quantity: item.quantity ?? 1,
        price: item.price ?? null,
        amount: item.amount ?? null,
      })),
    },
  };
}

type Checked = { loaded: LoadedRedeemable; rules: RulesPassed } | { loaded: LoadedRedeemable; failure: Failure };

type Subjects = {
  customer: Customer | null;
  order: OrderObject | null;
  assignments: RuleAssignments;
  qualifying: Qualifying;
};

/**
 * How a qualification checks (null: a validation or redemption). Both ignore a loyalty card's
 * reward and the rules on redemptions per customer (the reference's warning); AUDIENCE checks
 * the customer alone: what fails only for the order (its absence, its rules) passes.
 */
export type Qualifying = 'ORDER' | 'AUDIENCE' | null;
const ORDER_FAILURES: ReadonlySet<string> = new Set([
  'missing_order',
  'invalid_order',
  'missing_order_items',
  'order_rules_violated',
]);
const NO_ITEMS = { data: [], total: 0, data_ref: 'data' as const, object: 'list' as const };

async function checkOne(
  trx: Kysely<Database>,
  ctx: PipelineContext,
  loaded: LoadedRedeemable,
  { customer, order, assignments, qualifying }: Subjects,
): Promise<Checked> {
  const refused = checkRedeemable(loaded, {
    now: ctx.at,
    customerId: customer?.id ?? null,
    order,
    qualifying: qualifying !== null,
  });
  const audience = qualifying === 'AUDIENCE';
  if (refused && !(audience && ORDER_FAILURES.has(refused.key))) return { loaded, failure: refused };
  const input = rulesInputOf(trx, loaded, customer, order, assignments);
  if (qualifying !== null) input.customerRedemptions = undefined;
  const rules = await checkValidationRules(trx, input, { now: () => new Date(ctx.at) });
  if (!rules.ok && audience && ORDER_FAILURES.has(rules.code))
    return { loaded, rules: { ok: true, items: null, applicable_to: NO_ITEMS, inapplicable_to: NO_ITEMS } };
  return rules.ok
    ? { loaded, rules }
    : { loaded, failure: { ...failure(rules.code, rules.message), rule_id: rules.rule_id } };
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

/** The request's customer and order, resolved once for every plan made against them. */
export interface PlanBasis {
  customer: Customer | null;
  order: OrderObject | null;
  orderCreated: boolean;
}

export async function planBasisOf(
  trx: Kysely<Database>,
  ctx: PipelineContext,
  body: StackableBody,
  subjects: PlanSubjects,
): Promise<PlanBasis> {
  const customer = await subjects.customer(trx, ctx, body);
  const { order, created } = await orderOf(trx, ctx, body, customer, subjects);
  return { customer, order, orderCreated: created };
}

/** Load and check: every redeemable read in one pass, with every rule assignment in one read. */
async function checkAll(
  trx: Kysely<Database>,
  ctx: PipelineContext,
  basis: PlanBasis,
  redeemables: RedeemableBody[],
  qualifying: Qualifying = null,
): Promise<Checked[]> {
  const loaded = await loadRedeemables(trx, redeemables);
  const assignments = await readRuleAssignments(trx, loaded.flatMap(subjectsOf));
  const checked: Checked[] = [];
  for (const one of loaded)
    checked.push(
      await checkOne(trx, ctx, one, { customer: basis.customer, order: basis.order, assignments, qualifying }),
    );
  return checked;
}

/** Stack (the stacking rules) and compute (the engine) over what was checked. */
function stackOf(ctx: PipelineContext, { customer, order, orderCreated }: PlanBasis, checked: Checked[]): Plan {
  const inapplicable = checked.flatMap((c) => ('failure' in c ? [c] : []));
  const valid = checked.flatMap((c) =>
    'rules' in c ? [{ ...c, index: c.loaded.index, category: categoryOf(c.loaded) }] : [],
  );
  const selection = selectStack(valid, ctx.rules);
  const computed = compute(order, selection.applied, ctx.rules);
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
  return { customer, order, orderCreated, applied, inapplicable, skipped, final: computed.final };
}

export async function planStack(
  trx: Kysely<Database>,
  ctx: PipelineContext,
  body: StackableBody,
  subjects: PlanSubjects,
): Promise<Plan> {
  const basis = await planBasisOf(trx, ctx, body, subjects);
  return stackOf(ctx, basis, await checkAll(trx, ctx, basis, body.redeemables));
}

/** Redeemables planned together (a promotion stack's tiers) against a basis resolved already, checked as planEachAlone checks. */
export async function planTogether(
  trx: Kysely<Database>,
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
  trx: Kysely<Database>,
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
