/** Date arithmetic and date parsing for conditions. Days are UTC calendar days. */
export const DAY_MS = 86_400_000;

export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The text forms a stored value must have to count as a date in a condition (a metadata
 * value such as "2024-05-01" or "2024-05-01T10:00:00.000Z"), as SQLite GLOB patterns. The SQL
 * side of a filter guards with exactly these, so the evaluator here and the database agree.
 */
const D = '[0-9]';
const DATE = `${D}${D}${D}${D}-${D}${D}-${D}${D}`;
const TIME = `T${D}${D}:${D}${D}:${D}${D}`;
const MS = `.${D}${D}${D}`;
const OFFSET = `[+-]${D}${D}:${D}${D}`;
export const DATE_ITEM_GLOBS: readonly string[] = [
  DATE,
  `${DATE}${TIME}`,
  `${DATE}${TIME}Z`,
  `${DATE}${TIME}${MS}`,
  `${DATE}${TIME}${MS}Z`,
  `${DATE}${TIME}${OFFSET}`,
  `${DATE}${TIME}${MS}${OFFSET}`,
];

const DATE_ITEM = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?(?:Z|([+-])(\d{2}):(\d{2}))?)?$/;

const inRange = (value: number, min: number, max: number): boolean => value >= min && value <= max;

/**
 * A stored value as a point in time (ms since the epoch), or undefined if it is not a date in
 * one of the forms above. Field ranges follow SQLite's date functions: month 1-12, day 1-31
 * (a day past the month's end rolls over), hour 0-24, minute and second 0-59, offset up to
 * 14:59. A time without an offset is UTC.
 */
export function parseDateItem(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATE_ITEM.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms, sign, oh, om] = m;
  const n = (part: string | undefined): number => (part === undefined ? 0 : Number(part));
  if (!inRange(n(mo), 1, 12) || !inRange(n(d), 1, 31)) return undefined;
  if (!inRange(n(h), 0, 24) || !inRange(n(mi), 0, 59) || !inRange(n(s), 0, 59)) return undefined;
  if (!inRange(n(oh), 0, 14) || !inRange(n(om), 0, 59)) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(n(y), n(mo) - 1, n(d));
  date.setUTCHours(n(h), n(mi), n(s), n(ms));
  const offsetMs = (n(oh) * 60 + n(om)) * 60_000;
  return date.getTime() - (sign === '-' ? -offsetMs : offsetMs);
}
