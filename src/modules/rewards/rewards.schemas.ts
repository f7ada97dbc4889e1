import { number, object, string, type InferType, type ObjectShape } from 'yup';
import { REWARD_TYPES, type RewardType } from '../../lib/enums.js';
import { idField, isPlainObject, jsonObjectField, longText, objectRule, shortText } from '../../lib/fields.js';
import { LIMITS } from '../../lib/limits.js';
import { limit, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';

/**
 * Bodies of POST and PUT /v1/rewards (RewardsCreateRequestBody, RewardsUpdateRequestBody) and
 * the rewards list query. `parameters` holds exactly one of `campaign`, `product` or `coin`,
 * which decides the reward's type (a `type` that names another is refused).
 */
const PATH = '${path}';
const NOT_AN_OBJECT = 'The body must be a JSON object';

/** A whole number from `min`, within 2^53. */
export const wholeNumberAtLeast = (min: number) =>
  number()
    .typeError(`${PATH} must be an integer`)
    .test(
      'whole',
      `${PATH} must be an integer of at least ${min}`,
      (v) => v == null || (Number.isSafeInteger(v) && v >= min),
    );

const block = <T extends ObjectShape>(fields: T) =>
  object(fields).typeError(`${PATH} must be an object`).optional().default(undefined);

const campaignParameters = block({
  id: idField(PATH).required(`${PATH} is required`),
  balance: wholeNumberAtLeast(1).nullable(),
});

const productParameters = block({
  id: idField(PATH).required(`${PATH} is required`),
  sku_id: idField(PATH).nullable(),
});

const coinParameters = block({
  exchange_ratio: number()
    .typeError(`${PATH} must be a number`)
    .required(`${PATH} is required`)
    .test('positive', `${PATH} must be a number above 0`, (v) => v == null || (Number.isFinite(v) && v > 0)),
  points_ratio: wholeNumberAtLeast(1).nullable(),
});

export const PARAMETER_KINDS = ['campaign', 'product', 'coin'] as const;
export type ParameterKind = (typeof PARAMETER_KINDS)[number];

const parametersSchema = block({ campaign: campaignParameters, product: productParameters, coin: coinParameters }).test(
  'one-kind',
  'parameters must hold exactly one of campaign, product or coin',
  (v) => v == null || PARAMETER_KINDS.filter((kind) => v[kind] != null).length === 1,
);

const attributesSchema = block({
  image_url: shortText(PATH, LIMITS.url).nullable(),
  description: longText(PATH).nullable(),
});

const rewardFields = {
  name: shortText('name').min(1, 'name must not be empty'),
  type: string().oneOf(REWARD_TYPES, `type must be one of: ${REWARD_TYPES.join(', ')}`),
  parameters: parametersSchema,
  stock: wholeNumberAtLeast(0).nullable(),
  attributes: attributesSchema,
  metadata: jsonObjectField('metadata').nullable(),
};

const TYPE_OF_KIND: Record<ParameterKind, RewardType> = { campaign: 'CAMPAIGN', product: 'MATERIAL', coin: 'COIN' };

/** A `type` given with the parameters must be the one they make (parameters' own test names a wrong mix). */
function typeProblem(body: Record<string, unknown>): string | undefined {
  const { type, parameters } = body;
  if (!(REWARD_TYPES as readonly unknown[]).includes(type) || !isPlainObject(parameters)) return undefined;
  const kinds = PARAMETER_KINDS.filter((kind) => parameters[kind] != null);
  const derived = kinds.length === 1 ? TYPE_OF_KIND[kinds[0] as ParameterKind] : type;
  return type === derived ? undefined : `type ${type} does not match parameters.${kinds[0]} (a ${derived} reward)`;
}

/** POST /v1/rewards: `name` and `parameters` are required. */
export const createRewardSchema = object({
  ...rewardFields,
  name: rewardFields.name.defined('name is required'),
  parameters: parametersSchema.required('parameters is required'),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT)
  .test(objectRule('type-of-parameters', typeProblem));

/** PUT /v1/rewards/{id}: the fields given change; `parameters` keep the reward's type. */
export const updateRewardSchema = object(rewardFields).typeError(NOT_AN_OBJECT).nonNullable(NOT_AN_OBJECT);

export type CreateRewardBody = InferType<typeof createRewardSchema>;
export type UpdateRewardBody = InferType<typeof updateRewardSchema>;
export type RewardParametersBody = NonNullable<CreateRewardBody['parameters']>;

const rewardsListParams = { limit: limit(), page: page(100), assignment_id: text() };

/** GET /v1/rewards: `limit`, `page` and `assignment_id` (the reward of that assignment). */
export const rewardsListQuerySchema = querySchema(rewardsListParams);
export type RewardsListQuery = QueryOf<typeof rewardsListParams>;
