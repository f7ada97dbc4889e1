import { parseIsoDuration, type IsoDuration } from '../../lib/dates.js';
import type { DailyHours, Validity, ValidityTimeframe } from './types.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** `at` plus `times` x the duration: years and months by the calendar, the rest as fixed lengths (UTC has no DST). */
export function addDuration(at: number, duration: IsoDuration, times = 1): number {
  const date = new Date(at);
  if (duration.years !== 0 || duration.months !== 0)
    date.setUTCMonth(date.getUTCMonth() + times * (12 * duration.years + duration.months));
  const fixed =
    ((duration.weeks * 7 + duration.days) * 24 * 60 + duration.hours * 60 + duration.minutes) * MINUTE_MS +
    duration.seconds * 1000;
  return date.getTime() + times * fixed;
}

/** The last k with start + k x interval <= t (t >= start), found from an estimate then corrected. */
function periodIndex(start: number, interval: IsoDuration, t: number): number {
  const length = addDuration(start, interval) - start;
  let k = Math.max(0, Math.floor((t - start) / length));
  while (k > 0 && addDuration(start, interval, k) > t) k--;
  while (addDuration(start, interval, k + 1) <= t) k++;
  return k;
}

/**
 * Periods of `duration` start at start_date and every `interval` after it. A timeframe
 * without a start (refused on input) or with a duration that does not parse never holds;
 * an interval of zero length means one period only.
 */
function inTimeframe(timeframe: ValidityTimeframe, startDate: string | null, t: number): boolean {
  const duration = parseIsoDuration(timeframe.duration);
  const interval = parseIsoDuration(timeframe.interval);
  if (startDate === null || !duration || !interval) return false;
  const start = Date.parse(startDate);
  if (t < start) return false;
  const k = addDuration(start, interval) > start ? periodIndex(start, interval, t) : 0;
  const periodStart = addDuration(start, interval, k);
  return t < addDuration(periodStart, duration);
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * A window holds from start_time on one of its days to expiration_time (inclusive: inactive
 * only after it). A window that ends before it starts runs past midnight into the next day.
 */
function inWindow(window: DailyHours, t: number): boolean {
  const day = new Date(t).getUTCDay();
  const timeOfDay = t - Math.floor(t / DAY_MS) * DAY_MS;
  const from = minutesOf(window.start_time) * MINUTE_MS;
  const to = minutesOf(window.expiration_time) * MINUTE_MS;
  const on = (d: number): boolean => window.days_of_week.includes((d + 7) % 7);
  if (from <= to) return on(day) && timeOfDay >= from && timeOfDay <= to;
  return (on(day) && timeOfDay >= from) || (on(day - 1) && timeOfDay <= to);
}

/**
 * Whether the rules let the resource be active at the instant (a pure evaluation, for
 * redemption and validation). Every rule that is set must hold; an empty day list or an
 * empty `daily` list sets no rule. The resource's own `active` flag is not part of it.
 */
export function isActiveAt(validity: Validity, instant: Date | string | number): boolean {
  const t = new Date(instant).getTime();
  if (validity.start_date !== null && t < Date.parse(validity.start_date)) return false;
  if (validity.expiration_date !== null && t > Date.parse(validity.expiration_date)) return false;
  if (validity.validity_timeframe && !inTimeframe(validity.validity_timeframe, validity.start_date, t)) return false;
  const days = validity.validity_day_of_week ?? [];
  if (days.length > 0 && !days.includes(new Date(t).getUTCDay())) return false;
  const daily = validity.validity_hours?.daily ?? [];
  return daily.length === 0 || daily.some((window) => inWindow(window, t));
}
