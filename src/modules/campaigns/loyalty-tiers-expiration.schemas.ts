import { number, object, string, type InferType } from 'yup';
import { isoDuration } from '../../lib/validity-fields.js';

/**
 * A loyalty program's `loyalty_tiers_expiration` (the reference's LoyaltyTiersExpirationAll):
 * how members qualify for tiers and when a tier ends. Campaigns store it (a LOYALTY_PROGRAM
 * campaign's column) and answer it as sent; loyalty tiers read its qualification_type.
 */
const oneOf = (values: string[]) => string().oneOf(values).nullable();

export const loyaltyTiersExpirationSchema = () =>
  object({
    qualification_type: oneOf(['BALANCE', 'POINTS_IN_PERIOD']),
    qualification_period: oneOf(['MONTH', 'QUARTER', 'HALF_YEAR', 'YEAR']),
    start_date: object({ type: oneOf(['IMMEDIATE', 'NEXT_PERIOD']) })
      .noUnknown()
      .nullable()
      .default(undefined),
    expiration_date: object({
      type: oneOf(['END_OF_PERIOD', 'END_OF_NEXT_PERIOD', 'BALANCE_DROP', 'CUSTOM']),
      extend: isoDuration().nullable(),
      rounding: object({
        type: oneOf(['MONTH', 'QUARTER', 'HALF_YEAR', 'YEAR', 'CUSTOM']),
        strategy: oneOf(['START', 'END']),
        unit: oneOf(['MONTH']),
        value: number().integer().min(0).max(11).nullable(),
      })
        .noUnknown()
        .nullable()
        .default(undefined),
    })
      .noUnknown()
      .nullable()
      .default(undefined),
  })
    .noUnknown()
    .nullable()
    .optional()
    .default(undefined);

export type LoyaltyTiersExpiration = NonNullable<InferType<ReturnType<typeof loyaltyTiersExpirationSchema>>>;
