import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addDuration,
  isActiveAt,
  validityProblems,
  type Validity,
  type ValidityColumns,
} from '../../src/engine/validity/index.js';
import { parseIsoDuration } from '../../src/lib/dates.js';

const NONE: Validity = {
  start_date: null,
  expiration_date: null,
  validity_timeframe: null,
  validity_day_of_week: null,
  validity_hours: null,
};
const rules = (v: Partial<Validity>): Validity => ({ ...NONE, ...v });

// 2024-06-14 is a Friday, 2024-06-15 a Saturday, 2024-06-17 a Monday.
const WEEKDAYS_9_TO_5 = { daily: [{ start_time: '09:00', expiration_time: '17:00', days_of_week: [1, 2, 3, 4, 5] }] };
const FRIDAY_NIGHT = { daily: [{ start_time: '22:00', expiration_time: '02:00', days_of_week: [5] }] };
const HOURLY_EVERY_DAY = {
  start_date: '2024-01-01T10:00:00.000Z',
  validity_timeframe: { duration: 'PT1H', interval: 'P1D' },
};

describe('isActiveAt: each rule, and all of them together', () => {
  const cases: Array<[string, Partial<Validity>, string, boolean]> = [
    ['no rules', {}, '2024-06-15T12:00:00.000Z', true],
    ['before start_date', { start_date: '2024-06-15T12:00:00.000Z' }, '2024-06-15T11:59:59.999Z', false],
    ['at start_date', { start_date: '2024-06-15T12:00:00.000Z' }, '2024-06-15T12:00:00.000Z', true],
    ['at expiration_date', { expiration_date: '2024-06-15T12:00:00.000Z' }, '2024-06-15T12:00:00.000Z', true],
    ['after expiration_date', { expiration_date: '2024-06-15T12:00:00.000Z' }, '2024-06-15T12:00:00.001Z', false],
    ['timeframe: inside the third period', HOURLY_EVERY_DAY, '2024-01-03T10:30:00.000Z', true],
    ['timeframe: a period ends before its duration is over', HOURLY_EVERY_DAY, '2024-01-03T11:00:00.000Z', false],
    ['timeframe: between periods', HOURLY_EVERY_DAY, '2024-01-03T09:59:59.999Z', false],
    ['timeframe: before the first period', HOURLY_EVERY_DAY, '2023-12-31T10:30:00.000Z', false],
    [
      'timeframe P2D: every other day, on',
      { start_date: '2024-01-01T00:00:00.000Z', validity_timeframe: { duration: 'P1D', interval: 'P2D' } },
      '2024-01-05T23:00:00.000Z',
      true,
    ],
    [
      'timeframe P2D: every other day, off',
      { start_date: '2024-01-01T00:00:00.000Z', validity_timeframe: { duration: 'P1D', interval: 'P2D' } },
      '2024-01-06T01:00:00.000Z',
      false,
    ],
    [
      'timeframe by months: the same day two months on',
      { start_date: '2024-01-15T00:00:00.000Z', validity_timeframe: { duration: 'P1D', interval: 'P1M' } },
      '2024-03-15T12:00:00.000Z',
      true,
    ],
    [
      'timeframe by months: the day after',
      { start_date: '2024-01-15T00:00:00.000Z', validity_timeframe: { duration: 'P1D', interval: 'P1M' } },
      '2024-03-16T12:00:00.000Z',
      false,
    ],
    [
      'timeframe: a duration as long as the interval covers everything',
      { start_date: '2024-01-01T00:00:00.000Z', validity_timeframe: { duration: 'PT24H', interval: 'P1D' } },
      '2024-05-05T05:05:05.000Z',
      true,
    ],
    [
      'timeframe: a zero interval is one period only',
      { start_date: '2024-01-01T00:00:00.000Z', validity_timeframe: { duration: 'PT1H', interval: 'PT0S' } },
      '2024-01-02T00:30:00.000Z',
      false,
    ],
    [
      'timeframe: the one period of a zero interval',
      { start_date: '2024-01-01T00:00:00.000Z', validity_timeframe: { duration: 'PT1H', interval: 'PT0S' } },
      '2024-01-01T00:30:00.000Z',
      true,
    ],
    [
      'timeframe without a start never holds',
      { validity_timeframe: { duration: 'PT1H', interval: 'P1D' } },
      '2024-01-01T00:30:00.000Z',
      false,
    ],
    ['day of week: Saturday listed', { validity_day_of_week: [6] }, '2024-06-15T12:00:00.000Z', true],
    ['day of week: Saturday not listed', { validity_day_of_week: [0, 1] }, '2024-06-15T12:00:00.000Z', false],
    ['day of week: an empty list sets no rule', { validity_day_of_week: [] }, '2024-06-15T12:00:00.000Z', true],
    ['hours: Monday noon', { validity_hours: WEEKDAYS_9_TO_5 }, '2024-06-17T12:00:00.000Z', true],
    ['hours: Saturday noon', { validity_hours: WEEKDAYS_9_TO_5 }, '2024-06-15T12:00:00.000Z', false],
    ['hours: at expiration_time', { validity_hours: WEEKDAYS_9_TO_5 }, '2024-06-17T17:00:00.000Z', true],
    ['hours: just after expiration_time', { validity_hours: WEEKDAYS_9_TO_5 }, '2024-06-17T17:00:00.001Z', false],
    ['hours: just before start_time', { validity_hours: WEEKDAYS_9_TO_5 }, '2024-06-17T08:59:59.999Z', false],
    ['hours past midnight: Friday late', { validity_hours: FRIDAY_NIGHT }, '2024-06-14T23:00:00.000Z', true],
    ['hours past midnight: into Saturday', { validity_hours: FRIDAY_NIGHT }, '2024-06-15T01:00:00.000Z', true],
    ['hours past midnight: Saturday late', { validity_hours: FRIDAY_NIGHT }, '2024-06-15T23:00:00.000Z', false],
    [
      'hours past midnight: Friday early (Thursday is not listed)',
      { validity_hours: FRIDAY_NIGHT },
      '2024-06-14T01:00:00.000Z',
      false,
    ],
    ['hours: an empty daily list sets no rule', { validity_hours: { daily: [] } }, '2024-06-15T03:00:00.000Z', true],
    [
      'all rules hold',
      {
        ...HOURLY_EVERY_DAY,
        expiration_date: '2024-12-31T00:00:00.000Z',
        validity_day_of_week: [1],
        validity_hours: WEEKDAYS_9_TO_5,
      },
      '2024-06-17T10:15:00.000Z',
      true,
    ],
    [
      'all rules but the day of week hold',
      {
        ...HOURLY_EVERY_DAY,
        expiration_date: '2024-12-31T00:00:00.000Z',
        validity_day_of_week: [2],
        validity_hours: WEEKDAYS_9_TO_5,
      },
      '2024-06-17T10:15:00.000Z',
      false,
    ],
    [
      'all rules but the period hold',
      {
        ...HOURLY_EVERY_DAY,
        expiration_date: '2024-06-01T00:00:00.000Z',
        validity_day_of_week: [1],
        validity_hours: WEEKDAYS_9_TO_5,
      },
      '2024-06-17T10:15:00.000Z',
      false,
    ],
  ];
  for (const [name, validity, at, expected] of cases) {
    it(`${name}: ${at} -> ${expected ? 'active' : 'inactive'}`, () => {
      assert.equal(isActiveAt(rules(validity), at), expected);
      assert.equal(isActiveAt(rules(validity), new Date(at)), expected, 'a Date gives the same answer');
    });
  }
});

describe('addDuration: calendar months and years, fixed days and times', () => {
  const cases: Array<[string, string, number, string]> = [
    ['2024-01-15T00:00:00.000Z', 'P1M', 1, '2024-02-15T00:00:00.000Z'],
    ['2024-01-15T00:00:00.000Z', 'P1M', 13, '2025-02-15T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 'P1Y', 1, '2025-03-01T00:00:00.000Z'],
    ['2024-01-01T00:00:00.000Z', 'P1W2DT3H4M5.5S', 1, '2024-01-10T03:04:05.500Z'],
    ['2024-01-01T00:00:00.000Z', 'PT90M', 2, '2024-01-01T03:00:00.000Z'],
  ];
  for (const [from, duration, times, expected] of cases) {
    it(`${from} + ${times} x ${duration} = ${expected}`, () => {
      const parsed = parseIsoDuration(duration);
      assert.ok(parsed);
      assert.equal(new Date(addDuration(Date.parse(from), parsed, times)).toISOString(), expected);
    });
  }
});

describe('parseIsoDuration: the forms a timeframe accepts', () => {
  const cases: Array<[string, ReturnType<typeof parseIsoDuration>]> = [
    ['PT1H', { years: 0, months: 0, weeks: 0, days: 0, hours: 1, minutes: 0, seconds: 0 }],
    ['P1Y2M3W4DT5H6M7.5S', { years: 1, months: 2, weeks: 3, days: 4, hours: 5, minutes: 6, seconds: 7.5 }],
    ['P2D', { years: 0, months: 0, weeks: 0, days: 2, hours: 0, minutes: 0, seconds: 0 }],
    ['P', null],
    ['PT', null],
    ['P1H', null],
    ['1D', null],
    ['P1.5D', null],
    ['', null],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)}`, () => assert.deepEqual(parseIsoDuration(text), expected));
  }
});

describe('validityProblems: the rules that span fields, every one at once', () => {
  const columns = (v: Partial<ValidityColumns>): ValidityColumns => ({
    start_date: null,
    expiration_date: null,
    validity_timeframe: null,
    validity_day_of_week: null,
    validity_hours: null,
    ...v,
  });
  const cases: Array<[string, Partial<ValidityColumns>, string, string[]]> = [
    ['nothing set', {}, '', []],
    [
      'a period in order',
      { start_date: '2024-01-01T00:00:00.000Z', expiration_date: '2024-01-01T00:00:00.000Z' },
      '',
      [],
    ],
    [
      'an expiry before the start',
      { start_date: '2024-01-02T00:00:00.000Z', expiration_date: '2024-01-01T00:00:00.000Z' },
      '',
      ['expiration_date must not be before start_date'],
    ],
    [
      'a timeframe without a start',
      { validity_timeframe: '{"duration":"PT1H","interval":"P1D"}' },
      'promotion.tiers[0].',
      ['promotion.tiers[0].start_date is required when promotion.tiers[0].validity_timeframe is given'],
    ],
    [
      'a timeframe with a start',
      { start_date: '2024-01-01T00:00:00.000Z', validity_timeframe: '{"duration":"PT1H","interval":"P1D"}' },
      '',
      [],
    ],
  ];
  for (const [name, v, path, expected] of cases) {
    it(name, () => assert.deepEqual(validityProblems(columns(v), path), expected));
  }
});
