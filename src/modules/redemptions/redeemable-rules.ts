import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ItemTarget } from '../../engine/discounts/index.js';

/**
 * The one place the redemption pipeline asks validation rules about a redeemable. Until the
 * validation-rules module is merged it lets every redeemable through with every item; at the
 * merge its body becomes `return checkValidationRules(db, input)` from
 * src/modules/validation-rules/index.ts, which takes and answers these exact types.
 */
export type RuleSubject = { object: 'voucher' | 'campaign' | 'promotion_tier' | 'earning_rule' | 'reward_assignment'; id: string };

export interface RulesInput {
  subjects: RuleSubject[];
  customer: { id: string | null; source_id: string | null; metadata: Record<string, unknown> } | null;
  order: {
    amount: number;
    metadata: Record<string, unknown>;
    items: { product_id: string | null; sku_id: string | null; quantity: number; price: number | null; amount: number | null }[];
  } | null;
  customerRedemptions?: number;
}

/** The reference's ApplicableToResultList: which items a discount may touch (empty: no restriction). */
export interface ApplicableList {
  data: Record<string, unknown>[];
  total: number;
  data_ref: 'data';
  object: 'list';
}

export const emptyList = (): ApplicableList => ({ data: [], total: 0, data_ref: 'data', object: 'list' });

export type RulesOutcome =
  | { ok: true; items: ItemTarget[] | null; applicable_to: ApplicableList; inapplicable_to: ApplicableList }
  | { ok: false; code: 'customer_rules_violated' | 'order_rules_violated'; message: string; rule_id: string };

export async function checkRedeemableRules(_db: Kysely<Database>, _input: RulesInput): Promise<RulesOutcome> {
  return { ok: true, items: null, applicable_to: emptyList(), inapplicable_to: emptyList() };
}
