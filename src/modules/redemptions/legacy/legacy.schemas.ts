import type { InferType } from 'yup';
import { isPlainObject } from '../../../lib/fields.js';
import {
  giftCreditsSchema,
  rewardSchema,
  stackableBodySchema,
  type StackableBody,
} from '../pipeline/redemptions.schemas.js';

/**
 * The bodies of the single-redeemable calls older integrations make (the SDK's
 * `validations.validateVoucher`, `redemptions.redeem`, `promotions.tiers.redeem`, client-side
 * `validate` and `redeem`; docs/api.md "Redemptions and validations"): the stackable body without
 * `redeemables` and `options`, with a gift card's `gift` {credits} and a loyalty card's
 * `reward` {id, points} at the top. Each becomes a stackable body of its one redeemable.
 */
export const legacyBodySchema = stackableBodySchema
  .omit(['redeemables', 'options'])
  .shape({ gift: giftCreditsSchema, reward: rewardSchema });

export type LegacyBody = InferType<typeof legacyBodySchema>;

/** redeem-reward's body (the SDK's `loyalties.redeemReward`): the card's `reward`, and the `order` and `metadata`. */
export const memberRewardBodySchema = legacyBodySchema
  .pick(['reward', 'order', 'metadata'])
  .shape({ reward: rewardSchema.required('reward is required') });

export type MemberRewardBody = InferType<typeof memberRewardBodySchema>;

/** The legacy promotions validation's body: `customer`, `order`, `metadata`, `tracking_id`. */
export const promotionsValidationSchema = stackableBodySchema.omit(['redeemables', 'options', 'session']);

export interface LegacyTarget {
  object: 'voucher' | 'promotion_tier';
  id: string;
}

export function stackableOf(target: LegacyTarget, body: LegacyBody): StackableBody {
  const { gift, reward, customer, ...rest } = body;
  // The client-side `redeem` sends `customer: {}` when it knows no one: that is no customer.
  const someone = customer && Object.keys(customer).length > 0 ? { customer } : {};
  const redeemable = {
    ...target,
    ...(gift && target.object === 'voucher' ? { gift } : {}),
    ...(reward && target.object === 'voucher' ? { reward } : {}),
  };
  return { ...rest, ...someone, redeemables: [redeemable], options: undefined };
}

/** Text that is a number becomes the number; anything else stays, for the schema to refuse. */
const numeric = (value: unknown): unknown =>
  typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

const ITEM_NUMBERS = ['quantity', 'price', 'amount'] as const;

function itemOf(item: unknown): unknown {
  if (!isPlainObject(item)) return item;
  const converted: Record<string, unknown> = { ...item };
  for (const field of ITEM_NUMBERS) if (field in converted) converted[field] = numeric(converted[field]);
  return converted;
}

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));

/**
 * GET /client/v1/validate's query (nested from its brackets) as a legacy body, the way the
 * client-side SDK's `validate(params)` builds it: `amount`, `item[]`, `order[metadata]`
 * become the order; `customer`, `metadata`, `tracking_id` stay; `session_type`,
 * `session_key`, `session_ttl`, `session_ttl_unit` become the session; other parameters are ignored.
 */
export function legacyBodyOfQuery(query: Record<string, unknown>): { code: unknown; body: Record<string, unknown> } {
  const {
    code,
    amount,
    item,
    order,
    customer,
    metadata,
    tracking_id,
    session_type,
    session_key,
    session_ttl,
    session_ttl_unit,
  } = query;
  const orderMetadata = isPlainObject(order) ? order.metadata : undefined;
  const items = Array.isArray(item) ? item.map(itemOf) : item;
  const orderBody = defined({ amount: numeric(amount), items, metadata: orderMetadata });
  const session = defined({
    type: session_type,
    key: session_key,
    ttl: numeric(session_ttl),
    ttl_unit: session_ttl_unit,
  });
  const body = defined({
    order: Object.keys(orderBody).length > 0 ? orderBody : undefined,
    customer,
    metadata,
    tracking_id,
    session: Object.keys(session).length > 0 ? session : undefined,
  });
  return { code, body };
}
