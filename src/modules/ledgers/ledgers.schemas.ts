import { array, number, object, string, type InferType } from 'yup';
import { parseIsoDate } from '../../lib/dates.js';
import { LIMITS } from '../../lib/limits.js';
import { limit, order, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';
import { exportParametersSchema } from '../exports/index.js';

export const EXPIRATION_TYPES = ['PROGRAM_RULES', 'CUSTOM_DATE', 'NON_EXPIRING'] as const;

const nonZero = (name: string) =>
  number()
    .integer()
    .required()
    .test('non-zero', `${name} must not be 0`, (value) => value !== 0)
    .test('safe', `${name} is too large`, (value) => value === undefined || Number.isSafeInteger(value));

const reasonAndSource = {
  reason: string().max(LIMITS.longText).nullable(),
  source_id: string().max(LIMITS.shortText).nullable(),
};

/**
 * The body of both 4.6 paths (facts 1.6): `points` (non-zero; negative removes),
 * `expiration_type`, `expiration_date` (an ISO 8601 date; needed with CUSTOM_DATE), `reason`,
 * `source_id`.
 */
export const memberBalanceSchema = object({
  points: nonZero('points'),
  expiration_type: string().oneOf(EXPIRATION_TYPES).nullable(),
  expiration_date: string()
    .nullable()
    .test(
      'iso',
      'Property .expiration_date cannot be recognized as a ISO-8601 compliant date',
      (value) => value === null || value === undefined || parseIsoDate(value) !== null,
    )
    .when('expiration_type', {
      is: 'CUSTOM_DATE',
      then: (schema) => schema.required('expiration_date is required when expiration_type is CUSTOM_DATE'),
    }),
  ...reasonAndSource,
}).noUnknown();
export type MemberBalanceBody = InferType<typeof memberBalanceSchema>;

/** POST /v1/vouchers/{code}/balance (VouchersBalanceUpdateRequestBody): `amount`, `reason`, `source_id`. */
export const voucherBalanceSchema = object({ amount: nonZero('amount'), ...reasonAndSource }).noUnknown();
export type VoucherBalanceBody = InferType<typeof voucherBalanceSchema>;

/** The transactions lists (the reference's limit, order id|-id, starting_after_id). */
export const TRANSACTION_ORDER_FIELDS = ['id'] as const;
const transactionsParams = { limit: limit(), order: order(TRANSACTION_ORDER_FIELDS), starting_after_id: text() };
export const transactionsQuerySchema = querySchema(transactionsParams);
export type TransactionsQuery = QueryOf<typeof transactionsParams>;

/** The points-expiration list: limit and page, with total. */
const bucketsParams = { limit: limit(), page: page(100) };
export const bucketsQuerySchema = querySchema(bucketsParams);
export type BucketsQuery = QueryOf<typeof bucketsParams>;

/** The body of a card's transactions export: POST /v1/exports's `parameters`, without `exported_object`. */
export const transactionsExportSchema = object({ parameters: exportParametersSchema }).noUnknown(
  'the body holds unknown keys: ${unknown}',
);

/** At most this many source cards in one transfer. */
export const MAX_TRANSFERS = 100;

/** POST .../members/{memberId}/transfers (LoyaltiesMembersTransfersCreateRequestBody): 1..100 `{code, points, reason, source_id}`. */
export const transfersSchema = array(
  object({
    code: string().required('${path} is required').max(LIMITS.shortText),
    points: number()
      .integer('${path} must be an integer')
      .min(1, '${path} must be at least 1')
      .required('${path} is required')
      .test('safe', '${path} is too large', (value) => value === undefined || Number.isSafeInteger(value)),
    ...reasonAndSource,
  }).noUnknown(),
)
  .required('The body must be an array of transfers')
  .min(1, 'The body must hold at least one transfer')
  .max(MAX_TRANSFERS, `The body may hold at most ${MAX_TRANSFERS} transfers`)
  .typeError('The body must be an array of transfers');
export type TransferItem = InferType<typeof transfersSchema>[number];
