import { array, boolean, lazy, mixed, number, object, string, type InferType, type Schema } from 'yup';
import { wholeNumber } from '../../lib/fields.js';

/**
 * The voucher template's pieces (campaigns own templates): discounts, gift and loyalty card
 * blocks, code configuration and redemption limits. Vouchers reuse them for the fields a
 * request may override.
 */

export const codeConfigSchema = () =>
  object({
    length: wholeNumber().min(1),
    charset: string().min(1),
    prefix: string(),
    postfix: string(),
    pattern: string().min(1),
    initial_count: wholeNumber(),
  })
    .noUnknown()
    .optional()
    .default(undefined);

export const redemptionSchema = () =>
  object({ quantity: wholeNumber().min(0).nullable() })
    .noUnknown()
    .optional()
    .default(undefined);

// Discounts (voucherify-facts 2.7), told apart by `type` (and `units` for UNIT).
const AMOUNT_EFFECTS = [
  'APPLY_TO_ORDER',
  'APPLY_TO_ITEMS',
  'APPLY_TO_ITEMS_PROPORTIONALLY',
  'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY',
  'APPLY_TO_ITEMS_BY_QUANTITY',
];
const ORDER_OR_ITEMS = ['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'];
const productRef = () =>
  object({ id: string().required(), source_id: string().nullable(), name: string().nullable() })
    .noUnknown()
    .optional()
    .default(undefined);

const amountDiscount = object({
  type: string().required().oneOf(['AMOUNT']),
  amount_off: number().min(0).required(),
  amount_off_formula: string(),
  aggregated_amount_limit: wholeNumber().min(0),
  effect: string().oneOf(AMOUNT_EFFECTS),
  is_dynamic: boolean(),
}).noUnknown();

const percentDiscount = object({
  type: string().required().oneOf(['PERCENT']),
  percent_off: number().min(0).max(100).required(),
  percent_off_formula: string(),
  amount_limit: number().min(0),
  aggregated_amount_limit: wholeNumber().min(0),
  effect: string().oneOf(ORDER_OR_ITEMS),
  is_dynamic: boolean(),
}).noUnknown();

const fixedDiscount = object({
  type: string().required().oneOf(['FIXED']),
  fixed_amount: number().min(0).required(),
  fixed_amount_formula: string(),
  effect: string().oneOf(ORDER_OR_ITEMS),
  is_dynamic: boolean(),
}).noUnknown();

const oneUnit = {
  unit_off: number().min(0),
  unit_off_formula: string(),
  unit_type: string().required(),
  product: productRef(),
  sku: productRef(),
};

const unitDiscount = object({
  type: string().required().oneOf(['UNIT']),
  ...oneUnit,
  effect: string().oneOf(['ADD_MISSING_ITEMS', 'ADD_NEW_ITEMS', 'ADD_MANY_ITEMS']),
  is_dynamic: boolean(),
}).noUnknown();

const unitMultipleDiscount = object({
  type: string().required().oneOf(['UNIT']),
  effect: string().oneOf(['ADD_MANY_ITEMS']),
  units: array(
    object({ ...oneUnit, effect: string().required().oneOf(['ADD_NEW_ITEMS', 'ADD_MISSING_ITEMS']) }).noUnknown(),
  )
    .required()
    .min(1),
  is_dynamic: boolean(),
}).noUnknown();

const discountType = object({ type: string().required().oneOf(['AMOUNT', 'PERCENT', 'FIXED', 'UNIT']) });

export const discountSchema = (options: { required?: boolean } = {}): Schema<Record<string, unknown> | undefined> =>
  lazy((value: unknown) => {
    const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    if (value === undefined) return options.required ? mixed().required() : mixed().default(undefined);
    switch (v.type) {
      case 'AMOUNT':
        return amountDiscount;
      case 'PERCENT':
        return percentDiscount;
      case 'FIXED':
        return fixedDiscount;
      case 'UNIT':
        return v.units !== undefined ? unitMultipleDiscount : unitDiscount;
      default:
        return discountType;
    }
  }) as unknown as Schema<Record<string, unknown> | undefined>;

export const giftSchema = () =>
  object({
    amount: wholeNumber().min(0).required(),
    /** Accepted and ignored, as the real API does (create-voucher): a new card's balance is its amount. */
    balance: wholeNumber().min(0),
    effect: string().oneOf(ORDER_OR_ITEMS),
  })
    .noUnknown()
    .optional()
    .default(undefined);

export const loyaltyCardTemplateSchema = () =>
  object({
    points: wholeNumber().min(0).required(),
    /** Accepted and ignored, as the real API does: a new card's balance is its points. */
    balance: wholeNumber().min(0),
    expiration_rules: object({
      period_type: string().required().oneOf(['FIXED_DAY_OF_YEAR', 'MONTH']),
      period_value: wholeNumber().min(1),
      rounding_type: string().oneOf([
        'END_OF_MONTH',
        'END_OF_QUARTER',
        'END_OF_HALF_YEAR',
        'END_OF_YEAR',
        'PARTICULAR_MONTH',
      ]),
      rounding_value: wholeNumber().min(0),
      fixed_month: wholeNumber().min(1).max(12),
      fixed_day: wholeNumber().min(1).max(31),
    })
      .noUnknown()
      .optional()
      .default(undefined),
  })
    .noUnknown()
    .optional()
    .default(undefined);

export type CodeConfigBody = NonNullable<InferType<ReturnType<typeof codeConfigSchema>>>;
export type GiftTemplate = NonNullable<InferType<ReturnType<typeof giftSchema>>>;
export type LoyaltyCardTemplate = NonNullable<InferType<ReturnType<typeof loyaltyCardTemplateSchema>>>;
