import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { programExpiryDate, type ExpirationRules } from '../../src/engine/loyalty/points-expiry.js';

/** When points added on a day expire under a program's expiration_rules, table by table. */
describe('programExpiryDate', () => {
  const cases: Array<[string, ExpirationRules | null, string, string | null]> = [
    ['no rules: never', null, '2026-03-15', null],
    ['MONTH, no rounding', { period_type: 'MONTH', period_value: 3 }, '2026-03-15', '2026-06-15'],
    ['MONTH clamps the day to a short month', { period_type: 'MONTH', period_value: 1 }, '2026-01-31', '2026-02-28'],
    ['MONTH into a leap February', { period_type: 'MONTH', period_value: 1 }, '2028-01-31', '2028-02-29'],
    ['MONTH across the year', { period_type: 'MONTH', period_value: 11 }, '2026-03-15', '2027-02-15'],
    [
      'END_OF_MONTH',
      { period_type: 'MONTH', period_value: 1, rounding_type: 'END_OF_MONTH' },
      '2026-03-15',
      '2026-04-30',
    ],
    [
      'END_OF_QUARTER',
      { period_type: 'MONTH', period_value: 1, rounding_type: 'END_OF_QUARTER' },
      '2026-03-15',
      '2026-06-30',
    ],
    [
      'END_OF_QUARTER, last quarter',
      { period_type: 'MONTH', period_value: 8, rounding_type: 'END_OF_QUARTER' },
      '2026-03-15',
      '2026-12-31',
    ],
    [
      'END_OF_HALF_YEAR',
      { period_type: 'MONTH', period_value: 2, rounding_type: 'END_OF_HALF_YEAR' },
      '2026-05-15',
      '2026-12-31',
    ],
    [
      'END_OF_YEAR',
      { period_type: 'MONTH', period_value: 12, rounding_type: 'END_OF_YEAR' },
      '2026-03-15',
      '2027-12-31',
    ],
    [
      'PARTICULAR_MONTH later this year',
      { period_type: 'MONTH', period_value: 1, rounding_type: 'PARTICULAR_MONTH', rounding_value: 9 },
      '2026-03-15',
      '2026-09-30',
    ],
    [
      'PARTICULAR_MONTH already past: next year',
      { period_type: 'MONTH', period_value: 1, rounding_type: 'PARTICULAR_MONTH', rounding_value: 2 },
      '2026-03-15',
      '2027-02-28',
    ],
    [
      'FIXED_DAY_OF_YEAR later this year',
      { period_type: 'FIXED_DAY_OF_YEAR', fixed_month: 6, fixed_day: 30 },
      '2026-03-15',
      '2026-06-30',
    ],
    [
      'FIXED_DAY_OF_YEAR on the day itself: a year on',
      { period_type: 'FIXED_DAY_OF_YEAR', fixed_month: 3, fixed_day: 15 },
      '2026-03-15',
      '2027-03-15',
    ],
    [
      'FIXED_DAY_OF_YEAR passed: next year',
      { period_type: 'FIXED_DAY_OF_YEAR', fixed_month: 1, fixed_day: 1 },
      '2026-03-15',
      '2027-01-01',
    ],
    [
      'FIXED_DAY_OF_YEAR 29 Feb in a common year',
      { period_type: 'FIXED_DAY_OF_YEAR', fixed_month: 2, fixed_day: 29 },
      '2026-03-15',
      '2027-02-28',
    ],
    [
      'FIXED_DAY_OF_YEAR with period_value 2: one more year',
      { period_type: 'FIXED_DAY_OF_YEAR', period_value: 2, fixed_month: 12, fixed_day: 31 },
      '2026-03-15',
      '2027-12-31',
    ],
  ];
  for (const [name, rules, addedOn, expected] of cases) {
    it(name, () => assert.equal(programExpiryDate(rules, addedOn), expected));
  }
});
