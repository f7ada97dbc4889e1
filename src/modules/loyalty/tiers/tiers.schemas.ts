import { mixed, number, object, type InferType } from 'yup';
import { TIER_MAPPING_TYPES } from '../../../lib/enums.js';
import { bulkBody, isPlainObject, jsonObjectField, shortText } from '../../../lib/fields.js';
import { LIMITS } from '../../../lib/limits.js';
import { limit, order, page, querySchema, type QueryOf } from '../../../lib/query-params.js';
import type { TierMapping } from '../../../engine/loyalty/points.js';

/**
 * Bodies of loyalty tiers (LoyaltyTierBase + metadata): the bulk POST
 * /v1/loyalties/{campaignId}/tiers (an array) and promo's PUT of one tier. `points` is
 * `{from, to}` with inclusive bounds (`from` left out: 0 for a new tier, unchanged by a PUT;
 * `to` left out: no upper bound); the mappings are
 * `{<id>: {type: MULTIPLY, multiplier} | {type: CUSTOM, points}}`.
 */
const PATH = '${path}';
const NOT_AN_OBJECT = 'The body must be a JSON object';

/** The most tiers one program may hold (and so one bulk request may create). */
export const MAX_PROGRAM_TIERS = 100;

const whole = (min: number) =>
  number()
    .typeError(`${PATH} must be an integer`)
    .test(
      'whole',
      `${PATH} must be an integer of at least ${min}`,
      (v) => v == null || (Number.isSafeInteger(v) && v >= min),
    );

/** Why a mapping value is wrong, or null when it is a valid mapping. */
function mappingProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object';
  if (value.type === 'MULTIPLY') {
    const m = value.multiplier;
    return typeof m === 'number' && Number.isFinite(m) && m > 0 ? null : 'multiplier must be a number above 0';
  }
  if (value.type === 'CUSTOM')
    return Number.isSafeInteger(value.points) && (value.points as number) >= 0
      ? null
      : 'points must be an integer of at least 0';
  return `type must be one of: ${TIER_MAPPING_TYPES.join(', ')}`;
}

/** A mapping object keyed by earning rule or assignment id. */
const mappings = () =>
  mixed<Record<string, TierMapping>>((v): v is Record<string, TierMapping> => isPlainObject(v))
    .typeError(`${PATH} must be an object`)
    .nullable()
    .test('mappings', '', function check(value) {
      if (value == null) return true;
      const keys = Object.keys(value);
      if (keys.length > MAX_PROGRAM_TIERS * 10)
        return this.createError({ message: `${this.path} must hold at most ${MAX_PROGRAM_TIERS * 10} entries` });
      for (const key of keys) {
        if (key.length === 0 || key.length > LIMITS.shortText)
          return this.createError({ message: `${this.path} keys must be ids of 1 to ${LIMITS.shortText} characters` });
        const problem = mappingProblem(value[key]);
        if (problem) return this.createError({ message: `${this.path}.${key} ${problem}` });
      }
      return true;
    });

// `from` may be left out, as the real API allows (create-in-bulk-loyalty-tiers): a new tier starts at 0 points.
const pointsSchema = object({
  from: whole(0),
  to: whole(0).nullable(),
})
  .typeError(`${PATH} must be an object`)
  .default(undefined)
  .test(
    'range',
    'points.to must be at least points.from',
    (v) => v == null || v.to == null || v.from == null || v.to >= v.from,
  );

const tierFields = {
  name: shortText(PATH).min(1, `${PATH} must not be empty`),
  points: pointsSchema,
  earning_rules: mappings(),
  rewards: mappings(),
  metadata: jsonObjectField(PATH).nullable(),
};

const newTierSchema = object({
  ...tierFields,
  name: tierFields.name.defined(`${PATH} is required`),
  points: pointsSchema.defined(`${PATH} is required`),
}).typeError(`${PATH} must be an object`);

/** POST /v1/loyalties/{campaignId}/tiers: 1 to MAX_PROGRAM_TIERS tiers, all or none. */
export const createTiersSchema = bulkBody(newTierSchema, 'tier', 'tiers', MAX_PROGRAM_TIERS);

/** PUT /v1/loyalties/{campaignId}/tiers/{tierId}: the fields given change. */
export const updateTierSchema = object(tierFields).typeError(NOT_AN_OBJECT).nonNullable(NOT_AN_OBJECT);

export type NewTierBody = InferType<typeof newTierSchema>;
export type UpdateTierBody = InferType<typeof updateTierSchema>;

export const TIER_ORDER_FIELDS = ['created_at', 'updated_at'] as const;
const tiersListParams = { limit: limit(), page: page(100), order: order(TIER_ORDER_FIELDS) };

/** GET /v1/loyalties/{campaignId}/tiers: `limit`, `order` (and `page`, which the official client sends). */
export const tiersListQuerySchema = querySchema(tiersListParams);
export type TiersListQuery = QueryOf<typeof tiersListParams>;
