import { parseIsoDate } from '../../lib/dates.js';
import { invalidPayload } from '../../lib/errors.js';
import type { Validity } from './types.js';

/** Validity as stored: ISO dates, JSON text for the structured rules, null when unset. */
export interface ValidityColumns {
  start_date: string | null;
  expiration_date: string | null;
  validity_timeframe: string | null;
  validity_day_of_week: string | null;
  validity_hours: string | null;
}

/** Validity as a body gives it (every field optional; null clears). */
export type ValidityInput = { [K in keyof Validity]?: Validity[K] | undefined };

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

/** Every column, unset ones null (a new resource). */
export const allValidityColumns = (input: Partial<ValidityColumns>): ValidityColumns => ({
  start_date: input.start_date ?? null,
  expiration_date: input.expiration_date ?? null,
  validity_timeframe: input.validity_timeframe ?? null,
  validity_day_of_week: input.validity_day_of_week ?? null,
  validity_hours: input.validity_hours ?? null,
});

/**
 * Rules that span fields, checked on the merged result (what is stored plus what changes):
 * the period's order, and a timeframe needs a start. Every problem, each with its path.
 */
export function validityProblems(v: ValidityColumns, path = ''): string[] {
  const problems: string[] = [];
  if (v.start_date && v.expiration_date && Date.parse(v.expiration_date) < Date.parse(v.start_date)) {
    problems.push(`${path}expiration_date must not be before ${path}start_date`);
  }
  if (v.validity_timeframe && !v.start_date)
    problems.push(`${path}start_date is required when ${path}validity_timeframe is given`);
  return problems;
}

/** The same as a 400 invalid_payload listing every problem. */
export function checkValidity(v: ValidityColumns, path = ''): void {
  const problems = validityProblems(v, path);
  if (problems.length > 0) throw invalidPayload(problems.join('; '));
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** Validity as answered (and as `isActiveAt` reads it). */
export const presentValidity = (v: ValidityColumns): Validity => ({
  start_date: v.start_date,
  expiration_date: v.expiration_date,
  validity_timeframe: parse(v.validity_timeframe),
  validity_day_of_week: parse(v.validity_day_of_week),
  validity_hours: parse(v.validity_hours),
});
