/**
 * The date forms the API accepts (the reference's "Import Vouchers to Campaign", `start_date`): YYYY-MM-DD, YYYY-MM-DDTHH, YYYY-MM-DDTHH:mm,
 * YYYY-MM-DDTHH:mm:ss, with optional fractions and an optional Z or +hh:mm offset. A value
 * without an offset is read as UTC.
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** An instant as toISOString writes it: most dates sent (an import's created_at) are. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Parses an ISO 8601 date or date-time into a UTC ISO string, or null if it is not one. */
export function parseIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // The canonical form is its own answer when Date reads it back unchanged (no 2024-02-31).
  if (CANONICAL.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()) && date.toISOString() === value) return value;
  }
  const m = ISO_DATE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  if (zone && m[4] === undefined) return null; // a bare date cannot carry a zone
  const ms = frac.padEnd(3, '0').slice(0, 3);
  const offset = !zone || zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  // Reject dates that Date silently rolls over (2024-02-31).
  if (offset === 'Z' && date.getUTCDate() !== Number(d)) return null;
  return date.toISOString();
}

/** YYYY-MM-DD of a Date, in UTC. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** An ISO 8601 duration's parts (`P1Y2M3W4DT5H6M7.5S`); only seconds may have a fraction. */
export interface IsoDuration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** The ISO 8601 durations a body may give: at least one part; `T` only before a time part. */
export const ISO_DURATION =
  /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Parses an ISO 8601 duration, or null. */
export function parseIsoDuration(value: string): IsoDuration | null {
  const m = ISO_DURATION.exec(value);
  if (!m) return null;
  const part = (i: number): number => Number(m[i] ?? 0);
  return {
    years: part(1),
    months: part(2),
    weeks: part(3),
    days: part(4),
    hours: part(5),
    minutes: part(6),
    seconds: part(7),
  };
}
