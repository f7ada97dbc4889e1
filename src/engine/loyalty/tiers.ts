import { parseIsoDuration } from '../../lib/dates.js';

/**
 * A member's loyalty tier from its points (the reference's LoyaltyTier object, issue 11 point 7), without I/O: which
 * points qualify (BALANCE: the card's balance; POINTS_IN_PERIOD: points earned in the current
 * calendar period, UTC), the dates a tier holds from and to under the program's
 * `loyalty_tiers_expiration`, and which move a points change makes (joined, left, upgraded,
 * downgraded, prolonged). Dates are YYYY-MM-DD.
 */
export type QualificationPeriod = 'MONTH' | 'QUARTER' | 'HALF_YEAR' | 'YEAR';

/** The program's loyalty_tiers_expiration, as far as tiers read it. */
export interface TierRules {
  qualification_type?: string | null;
  qualification_period?: QualificationPeriod | string | null;
  start_date?: { type?: string | null } | null;
  expiration_date?: { type?: string | null; extend?: string | null } | null;
}

const MONTHS: Record<QualificationPeriod, number> = { MONTH: 1, QUARTER: 3, HALF_YEAR: 6, YEAR: 12 };

const isPeriod = (value: unknown): value is QualificationPeriod => typeof value === 'string' && value in MONTHS;

const day = (date: Date): string => date.toISOString().slice(0, 10);

/** The calendar period (UTC) holding `on`, `offset` periods later: its first and last day. */
export function periodOf(period: QualificationPeriod, on: string, offset = 0): { start: string; end: string } {
  const length = MONTHS[period];
  const date = new Date(`${on}T00:00:00.000Z`);
  const firstMonth = Math.floor(date.getUTCMonth() / length) * length + offset * length;
  const start = new Date(Date.UTC(date.getUTCFullYear(), firstMonth, 1));
  const end = new Date(Date.UTC(date.getUTCFullYear(), firstMonth + length, 0));
  return { start: day(start), end: day(end) };
}

/** The period whose earned points qualify, or null when the balance does (BALANCE, the default). */
export function qualificationPeriod(rules: TierRules | null): QualificationPeriod | null {
  if (rules?.qualification_type !== 'POINTS_IN_PERIOD') return null;
  return isPeriod(rules.qualification_period) ? rules.qualification_period : 'MONTH';
}

function addDuration(on: string, iso: string): string | null {
  const d = parseIsoDuration(iso);
  if (!d) return null;
  const date = new Date(`${on}T00:00:00.000Z`);
  date.setUTCFullYear(
    date.getUTCFullYear() + d.years,
    date.getUTCMonth() + d.months,
    date.getUTCDate() + d.weeks * 7 + d.days,
  );
  return day(date);
}

/**
 * When a tier reached on `on` starts and ends. END_OF_PERIOD and END_OF_NEXT_PERIOD end with
 * the qualification period (MONTH when the program names none); CUSTOM adds `extend` to the
 * start; BALANCE_DROP (and no rule) never ends by date: the tier lasts as long as the points.
 */
export function tierDates(rules: TierRules | null, on: string): { start_date: string; expiration_date: string | null } {
  const period: QualificationPeriod = isPeriod(rules?.qualification_period) ? rules.qualification_period : 'MONTH';
  const start = rules?.start_date?.type === 'NEXT_PERIOD' ? periodOf(period, on, 1).start : on;
  const type = rules?.expiration_date?.type;
  let expiration: string | null = null;
  if (type === 'END_OF_PERIOD') expiration = periodOf(period, start).end;
  if (type === 'END_OF_NEXT_PERIOD') expiration = periodOf(period, start, 1).end;
  if (type === 'CUSTOM' && rules?.expiration_date?.extend)
    expiration = addDuration(start, rules.expiration_date.extend);
  return { start_date: start, expiration_date: expiration };
}

/** A tier by its range. */
export interface TierRange {
  id: string;
  from: number;
  to: number | null;
}

/** The tier whose inclusive range holds the points (ranges of a program never overlap). */
export const tierFor = (tiers: readonly TierRange[], points: number): TierRange | null =>
  tiers.find((t) => t.from <= points && (t.to === null || points <= t.to)) ?? null;

export type TierMove = 'joined' | 'left' | 'upgraded' | 'downgraded' | 'prolonged';

export interface HeldTier {
  id: string;
  from: number;
  expiration_date: string | null;
}

/**
 * What a points change does to a member's tier. A tier with an expiration date is kept until
 * that day passes, whatever the points (a member who qualified keeps it for the period); one
 * without (BALANCE_DROP) follows the points at once. A higher tier is joined at once either
 * way. Re-qualifying for the same tier with a later end prolongs it. Null: nothing changes.
 */
export function tierMove(
  held: HeldTier | null,
  target: TierRange | null,
  today: string,
  newExpiration: string | null,
): TierMove | null {
  if (!held) return target ? 'joined' : null;
  const lapsed = held.expiration_date !== null && held.expiration_date < today;
  const follows = held.expiration_date === null || lapsed;
  if (target && target.id === held.id) {
    const later = held.expiration_date !== null && newExpiration !== null && newExpiration > held.expiration_date;
    return later ? 'prolonged' : null;
  }
  if (target && target.from > held.from) return 'upgraded';
  if (!follows) return null;
  return target ? 'downgraded' : 'left';
}
