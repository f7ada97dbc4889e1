import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { OrderObject } from '../../orders/index.js';
import {
  checkValidationRules,
  readRuleAssignments,
  type RuleAssignments,
  type RulesInput,
  type RulesOutcome,
} from '../../validation-rules/index.js';
import type { PipelineContext, PlanBasis } from './plan-basis.service.js';
import { checkRedeemable, failure, type Failure } from './redeemable-check.rules.js';
import { loadRedeemables, type LoadedRedeemable } from './redeemable-load.service.js';
import type { Customer } from './redemption-customer.service.js';
import { countCustomerRedemptions } from '../redemptions.repository.js';
import type { RedeemableBody } from './redemptions.schemas.js';

export type RulesPassed = Extract<RulesOutcome, { ok: true }>;

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

export type Checked = { loaded: LoadedRedeemable; rules: RulesPassed } | { loaded: LoadedRedeemable; failure: Failure };

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

/** Load and check: every redeemable read in one pass, with every rule assignment in one read. */
export async function checkAll(
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
