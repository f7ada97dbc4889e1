import { array, object, string, type InferType } from 'yup';
import { STACK_HIERARCHY_MODES } from '../../lib/enums.js';
import { idField, shortText } from '../../lib/fields.js';
import { date, limit, order, page, querySchema, type QueryOf } from '../../lib/query-params.js';

/**
 * Promotion stack bodies (PromotionsStacks{Create,Update}RequestBody): a name, 1 to 30 tiers of
 * the stack's campaign in the order they apply, and a category id. PUT changes the fields given.
 */
const PATH = '${path}';

/** The most tiers one stack holds (the reference's), and stacks one campaign holds (promo's: its list has no paging). */
export const MAX_STACK_TIERS = 30;
export const MAX_STACKS_PER_CAMPAIGN = 100;

const tiersField = () =>
  object({
    ids: array(idField(PATH).required())
      .typeError(`${PATH} must be an array of promotion tier ids`)
      .min(1, `${PATH} must hold at least one tier`)
      .max(MAX_STACK_TIERS, `${PATH} must hold at most ${MAX_STACK_TIERS} tiers`)
      .test(
        'unique',
        `${PATH} must not name a tier twice`,
        (ids) => ids === undefined || new Set(ids).size === ids.length,
      )
      .required(),
    hierarchy_mode: string()
      .typeError(`${PATH} must be a string`)
      .oneOf(STACK_HIERARCHY_MODES, `${PATH} must be one of: ${STACK_HIERARCHY_MODES.join(', ')}`),
  })
    .typeError(`${PATH} must be an object`)
    .default(undefined);

const stackFields = () => ({
  name: shortText(PATH).min(1, `${PATH} must not be empty`),
  tiers: tiersField(),
  category_id: shortText(PATH).nullable(),
});

export const createStackSchema = object({
  ...stackFields(),
  name: stackFields().name.required(),
  tiers: tiersField().required(),
}).typeError('The body must be a JSON object');
export const updateStackSchema = object(stackFields()).typeError('The body must be a JSON object');

export type CreateStackBody = InferType<typeof createStackSchema>;
export type UpdateStackBody = InferType<typeof updateStackSchema>;

/** The `order` values of GET /v1/promotions/stacks (each also with a leading `-`). */
export const PROMOTION_STACK_ORDER_FIELDS = ['created_at', 'updated_at', 'name'] as const;

const stacksListParams = {
  limit: limit(),
  page: page(100),
  order: order(PROMOTION_STACK_ORDER_FIELDS),
  'created_at[before]': date(),
  'created_at[after]': date(),
  'updated_at[before]': date(),
  'updated_at[after]': date(),
};

/** GET /v1/promotions/stacks. */
export const promotionStacksListQuerySchema = querySchema(stacksListParams);
export type PromotionStacksListQuery = QueryOf<typeof stacksListParams>;
