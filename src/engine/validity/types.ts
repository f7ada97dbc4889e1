/**
 * When a voucher, a campaign or a promotion tier is active (the reference's Voucher object): its period, a
 * recurring timeframe, days of the week and daily hours. Every field may be null (no rule).
 * Times are UTC: promo has no time zone setting, so days and hours are UTC days and hours.
 */
export interface ValidityTimeframe {
  /** ISO 8601 duration: how long each period lasts. */
  duration: string;
  /** ISO 8601 duration: from the start of one period to the start of the next. */
  interval: string;
}

export interface DailyHours {
  /** HH:mm: inactive before it. */
  start_time: string;
  /** HH:mm: inactive after it. */
  expiration_time: string;
  /** 0 = Sunday ... 6 = Saturday. */
  days_of_week: number[];
}

export interface Validity {
  /** ISO 8601 date-time: inactive before it. */
  start_date: string | null;
  /** ISO 8601 date-time: inactive after it. */
  expiration_date: string | null;
  validity_timeframe: ValidityTimeframe | null;
  validity_day_of_week: number[] | null;
  validity_hours: { daily: DailyHours[] } | null;
}
