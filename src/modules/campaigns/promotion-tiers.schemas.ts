import { boolean, lazy, object, type InferType, type Schema } from 'yup';
import { isPlainObject, jsonObjectField, longText, shortText, wholeNumber } from '../../lib/fields.js';
import { limit, oneOf, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';
import { validityFields } from '../../lib/validity-fields.js';
import { discountSchema } from './voucher-template.schemas.js';

/**
 * Promotion tier bodies: a tier of POST /v1/campaigns' `promotion.tiers` and of POST
 * /v1/promotions/{campaignId}/tiers (PromotionTierCreateParams), and PUT
 * /v1/promotions/tiers/{promotionTierId} (the fields given change). The discount is the
 * voucher discount's schema; validity goes through engine/validity.
 */
const PATH = '${path}';

/** The most tiers one PROMOTION campaign holds (its tiers list has no paging). */
export const MAX_PROMOTION_TIERS = 100;

/** A tier's `action`: `{discount}` (the discount optional), or the older shape that holds the discount's fields itself. */
export type TierAction = { discount?: Record<string, unknown> } | Record<string, unknown>;

/** The older shape: `action: {type, amount_off}`, the discount without its `discount` key. */
const isBareDiscount = (action: unknown): action is Record<string, unknown> =>
  isPlainObject(action) && 'type' in action && !('discount' in action);

/**
 * As the real API does, a tier may come without `action` or without `action.discount` (a tier
 * that gives no discount), and with the older `action: {type, amount_off}` shape.
 */
const tierAction = () =>
  lazy((action: unknown) =>
    isBareDiscount(action)
      ? discountSchema({ required: true })
      : object({ discount: discountSchema() }).noUnknown().default(undefined),
  ) as unknown as Schema<TierAction | undefined>;

/** The discount a tier's action gives, whichever shape it came in; undefined for none. */
export const tierDiscount = (action: TierAction | undefined): Record<string, unknown> | undefined =>
  action === undefined
    ? undefined
    : isBareDiscount(action)
      ? action
      : (action as { discount?: Record<string, unknown> }).discount;

const tierFields = () => ({
  name: shortText(PATH).min(1, `${PATH} must not be empty`),
  banner: longText(PATH).nullable(),
  action: tierAction(),
  metadata: jsonObjectField(PATH),
  active: boolean(),
  hierarchy: wholeNumber().min(1),
  category: shortText(PATH).nullable(),
  category_id: shortText(PATH).nullable(),
  ...validityFields(),
});

/** A new tier: a name, and its discount if it gives one. */
export const tierSchema = () => {
  const fields = tierFields();
  return object({ ...fields, name: fields.name.required() });
};

export const createTierSchema = tierSchema().typeError('The body must be a JSON object');
export const updatePromotionTierSchema = object(tierFields()).typeError('The body must be a JSON object');

export type TierBody = InferType<ReturnType<typeof tierSchema>>;
export type UpdatePromotionTierBody = InferType<typeof updatePromotionTierSchema>;

/** The `order` values of GET /v1/promotions/tiers (each also with a leading `-`). */
export const PROMOTION_TIER_ORDER_FIELDS = ['created_at', 'updated_at'] as const;

const tiersListParams = {
  is_available: oneOf(['true', 'false'] as const),
  limit: limit(),
  page: page(100),
  order: order(PROMOTION_TIER_ORDER_FIELDS),
};

/** GET /v1/promotions/tiers and /client/v1/promotions/tiers. */
export const promotionTiersListQuerySchema = querySchema(tiersListParams);
export type PromotionTiersListQuery = QueryOf<typeof tiersListParams>;
