/**
 * The date forms the API accepts (SPEC.md 4.5): YYYY-MM-DD, YYYY-MM-DDTHH, YYYY-MM-DDTHH:mm,
 * YYYY-MM-DDTHH:mm:ss, with optional fractions and an optional Z or +hh:mm offset. A value
 * without an offset is read as UTC.
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses an ISO 8601 date or date-time into a UTC ISO string, or null if it is not one. */
export function parseIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
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
