/**
 * Integer arithmetic on minor units. Products of amounts and weights can pass 2^53, so the
 * exact steps run on BigInt and only the (bounded) results come back as numbers.
 */

/**
 * A configured money value (amount_off, amount_limit, fixed_amount, credits, unit_off) as whole
 * minor units: the schemas accept any number >= 0, so a fraction of a cent rounds half-up;
 * what is not a number >= 0 counts as 0, and nothing passes 2^53 - 1.
 */
export const toMinor = (value: number): number =>
  value > 0 ? Math.min(Math.round(value), Number.MAX_SAFE_INTEGER) : 0;

/** A finite decimal number as an exact fraction: 12.5 -> 125/10, 1e-7 -> 1/10^7. */
function exactFraction(value: number): { num: bigint; den: bigint } {
  const [mantissa = '0', exponent = '0'] = value.toString().toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const shift = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return shift >= 0 ? { num: digits, den: 10n ** BigInt(shift) } : { num: digits * 10n ** BigInt(-shift), den: 1n };
}

/**
 * percent% of an amount, rounded half-up to a whole minor unit (12.5% of 1004 = 125.5 -> 126).
 * The reference does not state its rounding; half-up is what a shopper computes by hand. The
 * percentage is taken exactly as written (no binary float error: 0.1% stays 1/1000).
 */
export function percentOf(amount: number, percent: number): number {
  if (!(amount > 0 && percent > 0)) return 0;
  const capped = Math.min(percent, 100);
  // Whole percentages of ordinary amounts: exact in floating point (every value stays far below
  // 2^53, so the division's floor is exact); the general path parses the decimal and uses BigInt.
  if (Number.isInteger(capped) && amount < 2 ** 40) return Math.floor((amount * capped + 50) / 100);
  const { num, den } = exactFraction(capped);
  const scaled = BigInt(amount) * num;
  const whole = 100n * den;
  return Number((2n * scaled + whole) / (2n * whole));
}

/**
 * `total` split over the weights by largest remainder: each part gets the floor of its exact
 * share, and the units left over go one each to the largest remainders (ties: the earlier
 * item), so the parts add up to `total` exactly. Zero weights get nothing.
 */
function largestRemainder(total: number, weights: number[]): number[] {
  const sumWeights = weights.reduce((sum, w) => sum + BigInt(w), 0n);
  if (sumWeights === 0n) return weights.map(() => 0);
  const exact = weights.map((w) => BigInt(total) * BigInt(w));
  const parts = exact.map((e) => Number(e / sumWeights));
  let left = total - parts.reduce((sum, p) => sum + p, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e % sumWeights }))
    .sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of order) {
    if (left === 0) break;
    if (weights[i] === 0) continue;
    parts[i] = (parts[i] as number) + 1;
    left -= 1;
  }
  return parts;
}

/**
 * `total` split by weight with each part capped: a part that would pass its cap is fixed at
 * the cap and the rest is split again over the others, until nothing passes. The parts add up
 * to min(total, sum of the caps of items with weight).
 */
export function splitCapped(total: number, weights: number[], caps: number[]): number[] {
  const parts = weights.map(() => 0);
  const open = new Set(weights.flatMap((w, i) => (w > 0 && (caps[i] as number) > 0 ? [i] : [])));
  let left = total;
  while (left > 0 && open.size > 0) {
    const members = [...open];
    const shares = largestRemainder(
      left,
      members.map((i) => weights[i] as number),
    );
    const over = members.filter((i, k) => (shares[k] as number) >= (caps[i] as number));
    if (over.length === 0) {
      members.forEach((i, k) => (parts[i] = shares[k] as number));
      return parts;
    }
    for (const i of over) {
      parts[i] = caps[i] as number;
      left -= caps[i] as number;
      open.delete(i);
    }
  }
  return parts;
}

/** Parts scaled down so they add up to at most `cap`, each in proportion to itself. */
export function capParts(parts: number[], cap: number): number[] {
  const sum = parts.reduce((total, p) => total + p, 0);
  return sum <= cap ? parts : splitCapped(cap, parts, parts);
}

export const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
