import { parseIsoDate } from '../../lib/dates.js';
import { invalidPayload } from '../../lib/errors.js';
import type { ValidityInput } from './common.schemas.js';

/** Validity as stored: ISO dates, JSON text for the structured rules, null when unset. */
export interface ValidityColumns {
  start_date: string | null;
  expiration_date: string | null;
  validity_timeframe: string | null;
  validity_day_of_week: string | null;
  validity_hours: string | null;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
const date = (value: string | null | undefined): string | null => (value ? parseIsoDate(value) : null);

/** Fields present in the input, as columns (absent fields are left out, for updates). */
export function validityColumns(input: ValidityInput): Partial<ValidityColumns> {
  const out: Partial<ValidityColumns> = {};
  if (input.start_date !== undefined) out.start_date = date(input.start_date);
  if (input.expiration_date !== undefined) out.expiration_date = date(input.expiration_date);
  if (input.validity_timeframe !== undefined) out.validity_timeframe = json(input.validity_timeframe);
  if (input.validity_day_of_week !== undefined) out.validity_day_of_week = json(input.validity_day_of_week);
  if (input.validity_hours !== undefined) out.validity_hours = json(input.validity_hours);
  return out;
}

/** Rules that span fields, checked on the merged result: the period's order, and a timeframe needs a start. */
export function checkValidity(v: ValidityColumns, path = ''): void {
  if (v.start_date && v.expiration_date && v.expiration_date < v.start_date) {
    throw invalidPayload(`${path}expiration_date must not be before ${path}start_date`);
  }
  if (v.validity_timeframe && !v.start_date) throw invalidPayload(`${path}start_date is required when ${path}validity_timeframe is given`);
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** Validity as answered. */
export const presentValidity = (v: ValidityColumns) => ({
  start_date: v.start_date,
  expiration_date: v.expiration_date,
  validity_timeframe: parse<{ duration: string; interval: string }>(v.validity_timeframe),
  validity_day_of_week: parse<number[]>(v.validity_day_of_week),
  validity_hours: parse<Record<string, unknown>>(v.validity_hours),
});
