import { array, number, object, string } from 'yup';
import { ISO_DURATION, parseIsoDate } from './dates.js';

/**
 * Body fields of resources with a period (campaigns, promotion tiers, vouchers, later rewards
 * and earning rules): dates, durations and the validity rules of engine/validity. Text and
 * JSON fields come from fields.ts.
 */

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** An ISO 8601 date or date-time (the forms of the reference's "Import Vouchers to Campaign"); null clears it. */
export const isoDate = () =>
  string()
    .nullable()
    .test(
      'iso-date',
      '${path} must be an ISO 8601 date or date-time',
      (v) => v === undefined || v === null || parseIsoDate(v) !== null,
    );

const NOT_A_DURATION = '${path} must be an ISO 8601 duration';

/** An ISO 8601 duration (`PT1H`, `P2D`), or null, or empty. */
export const isoDuration = () =>
  string().nullable().matches(ISO_DURATION, { message: NOT_A_DURATION, excludeEmptyString: true });

const dayOfWeek = () => number().integer().min(0).max(6).required();
/** Days of the week (0 Sunday .. 6 Saturday): a week has seven, so a longer list is refused, not stored. */
const daysOfWeek = () => array(dayOfWeek()).max(7, '${path} must hold at most 7 days');
/** The most time windows of `validity_hours.daily`. */
export const MAX_DAILY_WINDOWS = 100;

export const validityTimeframe = () =>
  object({
    duration: string().required().matches(ISO_DURATION, NOT_A_DURATION),
    interval: string().required().matches(ISO_DURATION, NOT_A_DURATION),
  })
    .noUnknown()
    .nullable()
    .optional()
    .default(undefined);

export const validityDayOfWeek = () => daysOfWeek().nullable().optional().default(undefined);

export const validityHours = () =>
  object({
    daily: array(
      object({
        start_time: string().required().matches(HH_MM, '${path} must be HH:mm'),
        expiration_time: string().required().matches(HH_MM, '${path} must be HH:mm'),
        days_of_week: daysOfWeek().required(),
      }).noUnknown(),
    )
      .max(MAX_DAILY_WINDOWS, `\${path} must hold at most ${MAX_DAILY_WINDOWS} time windows`)
      .required(),
  })
    .noUnknown()
    .nullable()
    .optional()
    .default(undefined);

/** Validity fields every resource with a period carries (engine/validity's rules). */
export const validityFields = () => ({
  start_date: isoDate(),
  expiration_date: isoDate(),
  validity_timeframe: validityTimeframe(),
  validity_day_of_week: validityDayOfWeek(),
  validity_hours: validityHours(),
});
