import { array, number, object, string, type InferType } from 'yup';
import { idField, jsonObjectField, nullableText } from '../../../lib/fields.js';
import { createCustomerSchema } from '../../customers/index.js';
import { createOrderSchema } from '../../orders/index.js';
import { MAX_SESSION_TTL_DAYS, SESSION_TTL_UNIT_MS, SESSION_TTL_UNITS as TTL_UNITS } from '../../../lib/enums.js';

/**
 * The body of POST /v1/redemptions, /client/v1/redemptions, /v1/validations and
 * /client/v1/validations (StackableValidateRedeemBase, voucherify-facts 1.17): 1 to 30
 * redeemables, each a voucher code (a gift card with `gift.credits`, a loyalty card with
 * `reward`), a promotion tier or a promotion stack; the order and customer as POST /v1/orders
 * and POST /v1/customers take them. Duplicates and a stack among others are refused after
 * the shape (400 duplicated_redeemables / invalid_redeemables: their own keys).
 */
const PATH = '${path}';
export const MAX_REDEEMABLES = 30;
export const REDEEMABLE_OBJECTS = ['voucher', 'promotion_tier', 'promotion_stack'] as const;
export const EXPAND_OPTIONS = ['order', 'redemption', 'redeemable', 'category'] as const;

const points = (min: number) =>
  number()
    .typeError(`${PATH} must be an integer`)
    .test(
      'whole',
      `${PATH} must be an integer of at least ${min}`,
      (v) => v === undefined || (Number.isSafeInteger(v) && v >= min),
    );

/** A gift card's `gift` {credits} and a loyalty card's `reward` {id, points} (here and in the legacy bodies). */
export const giftCreditsSchema = object({ credits: points(1).optional() })
  .typeError(`${PATH} must be an object`)
  .optional()
  .default(undefined);
export const rewardSchema = object({ id: idField(PATH).optional(), points: points(1).optional() })
  .typeError(`${PATH} must be an object`)
  .optional()
  .default(undefined);

const redeemableSchema = object({
  object: string()
    .typeError(`${PATH} must be a string`)
    .required(`${PATH} is required`)
    .oneOf(REDEEMABLE_OBJECTS, `${PATH} must be one of: ${REDEEMABLE_OBJECTS.join(', ')}`),
  id: idField(PATH).required(`${PATH} is required`),
  gift: giftCreditsSchema,
  reward: rewardSchema,
}).typeError(`${PATH} must be an object`);

const NOT_AN_OBJECT = 'The body must be a JSON object';

export const stackableBodySchema = object({
  redeemables: array(redeemableSchema)
    .typeError('redeemables must be an array')
    .required('redeemables is required')
    .min(1, 'redeemables must hold at least 1 redeemable')
    .max(MAX_REDEEMABLES, `redeemables must hold at most ${MAX_REDEEMABLES} redeemables`),
  order: createOrderSchema.clone().typeError('order must be an object').nullable().optional().default(undefined),
  customer: createCustomerSchema
    .clone()
    .typeError('customer must be an object')
    .nullable()
    .optional()
    .default(undefined),
  session: object({
    type: string().typeError('session.type must be a string').oneOf(['LOCK'], 'session.type must be LOCK').optional(),
    key: nullableText('session.key').optional(),
    ttl: number().typeError('session.ttl must be a number').positive('session.ttl must be positive').optional(),
    ttl_unit: string()
      .typeError('session.ttl_unit must be a string')
      .oneOf(TTL_UNITS, `session.ttl_unit must be one of: ${TTL_UNITS.join(', ')}`)
      .optional(),
  })
    .typeError('session must be an object')
    .test(
      'ttl-unit',
      'session.ttl and session.ttl_unit go together',
      (s) => s === undefined || (s.ttl === undefined) === (s.ttl_unit === undefined),
    )
    // A lock that would outlast the year 9999 made an invalid date (a 500); no lock needs a century.
    .test('ttl-max', `session.ttl must last at most ${MAX_SESSION_TTL_DAYS} days`, (s) => {
      const unitMs =
        s?.ttl_unit !== undefined && Object.hasOwn(SESSION_TTL_UNIT_MS, s.ttl_unit)
          ? SESSION_TTL_UNIT_MS[s.ttl_unit as keyof typeof SESSION_TTL_UNIT_MS]
          : undefined;
      return (
        typeof s?.ttl !== 'number' ||
        unitMs === undefined ||
        s.ttl * unitMs <= MAX_SESSION_TTL_DAYS * SESSION_TTL_UNIT_MS.DAYS
      );
    })
    .optional()
    .default(undefined),
  tracking_id: nullableText('tracking_id').optional(),
  metadata: jsonObjectField('metadata').nullable().optional(),
  options: object({
    expand: array(string().oneOf(EXPAND_OPTIONS, `${PATH} must be one of: ${EXPAND_OPTIONS.join(', ')}`))
      .typeError('options.expand must be an array')
      .optional(),
  })
    .typeError('options must be an object')
    .optional()
    .default(undefined),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

export type StackableBody = InferType<typeof stackableBodySchema>;
export type RedeemableBody = InferType<typeof redeemableSchema>;
