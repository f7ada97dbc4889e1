/**
 * When points added on a day expire under a loyalty program's card template
 * `expiration_rules` (the reference's LOYALTY_PROGRAM voucher.loyalty_card.expiration_rules).
 * Pure: dates are 'YYYY-MM-DD' (UTC), the answer is the last day the points count, or null
 * when the program has no rules (the points never expire).
 *
 * - MONTH: `period_value` months after the day (the day clamped to the month's length), then
 *   rounded up to the end of its month, quarter, half-year or year, or to the end of the
 *   month `rounding_value` (PARTICULAR_MONTH: that month of the same year, else the next).
 * - FIXED_DAY_OF_YEAR: the next `fixed_month`/`fixed_day` strictly after the day (points
 *   added on that very day last a year), `period_value - 1` years later when given.
 */
export interface ExpirationRules {
  period_type: string;
  period_value?: number;
  rounding_type?: string;
  rounding_value?: number;
  fixed_month?: number;
  fixed_day?: number;
}

interface Ymd {
  y: number;
  m: number; // 1..12
  d: number;
}

const daysIn = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const parse = (day: string): Ymd => ({
  y: Number(day.slice(0, 4)),
  m: Number(day.slice(5, 7)),
  d: Number(day.slice(8, 10)),
});
const format = ({ y, m, d }: Ymd): string =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const endOfMonth = (y: number, m: number): Ymd => ({ y, m, d: daysIn(y, m) });

function addMonths(day: Ymd, months: number): Ymd {
  const index = day.y * 12 + (day.m - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return { y, m, d: Math.min(day.d, daysIn(y, m)) };
}

/** The end of the `size`-month block (3: quarter, 6: half-year, 12: year) that holds the day. */
const endOfBlock = (day: Ymd, size: number): Ymd => endOfMonth(day.y, Math.ceil(day.m / size) * size);

function round(day: Ymd, rounding: string | undefined, value: number | undefined): Ymd {
  switch (rounding) {
    case 'END_OF_MONTH':
      return endOfMonth(day.y, day.m);
    case 'END_OF_QUARTER':
      return endOfBlock(day, 3);
    case 'END_OF_HALF_YEAR':
      return endOfBlock(day, 6);
    case 'END_OF_YEAR':
      return endOfBlock(day, 12);
    case 'PARTICULAR_MONTH': {
      const month = Math.min(12, Math.max(1, value ?? 12));
      return endOfMonth(month >= day.m ? day.y : day.y + 1, month);
    }
    default:
      return day;
  }
}

function nextFixedDay(day: Ymd, month: number, dayOfMonth: number, years: number): Ymd {
  const on = (y: number): Ymd => ({ y, m: month, d: Math.min(dayOfMonth, daysIn(y, month)) });
  const thisYear = on(day.y);
  const first = format(thisYear) > format(day) ? thisYear : on(day.y + 1);
  return on(first.y + years);
}

export function programExpiryDate(rules: ExpirationRules | null | undefined, addedOn: string): string | null {
  if (!rules) return null;
  const day = parse(addedOn);
  if (rules.period_type === 'FIXED_DAY_OF_YEAR') {
    return format(
      nextFixedDay(day, rules.fixed_month ?? 12, rules.fixed_day ?? 31, Math.max(0, (rules.period_value ?? 1) - 1)),
    );
  }
  return format(round(addMonths(day, rules.period_value ?? 1), rules.rounding_type, rules.rounding_value));
}
