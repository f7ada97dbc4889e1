import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compileFilter,
  DAY_MS,
  parseDateItem,
  startOfUtcDay,
  type Operator,
} from '../../src/engine/conditions/index.js';

describe('parseDateItem: the stored forms that count as dates', () => {
  const cases: Array<[unknown, string | undefined]> = [
    ['2024-06-15', '2024-06-15T00:00:00.000Z'],
    ['2024-06-15T10:20:30', '2024-06-15T10:20:30.000Z'],
    ['2024-06-15T10:20:30Z', '2024-06-15T10:20:30.000Z'],
    ['2024-06-15T10:20:30.123', '2024-06-15T10:20:30.123Z'],
    ['2024-06-15T10:20:30.123Z', '2024-06-15T10:20:30.123Z'],
    ['2024-06-15T10:20:30+02:00', '2024-06-15T08:20:30.000Z'],
    ['2024-06-15T10:20:30.5-01:30', undefined],
    ['2024-06-15T10:20:30.500-01:30', '2024-06-15T11:50:30.500Z'],
    ['2024-02-31', '2024-03-02T00:00:00.000Z'], // rolls over, as SQLite's date functions do
    ['2024-01-01T24:00:00Z', '2024-01-02T00:00:00.000Z'],
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['2024-13-01', undefined],
    ['2024-00-10', undefined],
    ['2024-01-32', undefined],
    ['2024-01-01T23:60:00', undefined],
    ['2024-01-01T10:00:00+15:00', undefined],
    ['2024-01-01T10:00', undefined],
    ['2024-01-01 10:00:00', undefined],
    ['2024-01-01T10:00:00z', undefined],
    ['2024-1-01', undefined],
    ['today', undefined],
    [20240101, undefined],
    [null, undefined],
  ];
  for (const [value, iso] of cases) {
    it(`${JSON.stringify(value)} -> ${iso ?? 'not a date'}`, () => {
      const ms = parseDateItem(value);
      assert.equal(ms === undefined ? undefined : new Date(ms).toISOString(), iso);
    });
  }
});

describe('compileFilter: date operators become ranges fixed at now', () => {
  const now = new Date('2024-06-15T12:34:56.789Z');
  const t = now.getTime();
  const today = startOfUtcDay(t);
  const cases: Array<
    [Operator, unknown, { from?: number; fromInclusive: boolean; to?: number; toInclusive: boolean }]
  > = [
    [
      '$after',
      '2024-01-01',
      { from: Date.parse('2024-01-01T00:00:00Z'), fromInclusive: false, to: undefined, toInclusive: false },
    ],
    [
      '$before',
      '2024-01-01T10:00:00+02:00',
      { from: undefined, fromInclusive: false, to: Date.parse('2024-01-01T08:00:00Z'), toInclusive: false },
    ],
    ['$is_days_ago', 2, { from: today - 2 * DAY_MS, fromInclusive: true, to: today - DAY_MS, toInclusive: false }],
    [
      '$is_days_in_future',
      2,
      { from: today + 2 * DAY_MS, fromInclusive: true, to: today + 3 * DAY_MS, toInclusive: false },
    ],
    ['$more_than_ago', 3, { from: undefined, fromInclusive: false, to: t - 3 * DAY_MS, toInclusive: false }],
    ['$less_than_ago', 3, { from: t - 3 * DAY_MS, fromInclusive: false, to: t, toInclusive: true }],
    ['$more_than_future', 3, { from: t + 3 * DAY_MS, fromInclusive: false, to: undefined, toInclusive: false }],
    ['$less_than_future', 3, { from: t, fromInclusive: true, to: t + 3 * DAY_MS, toInclusive: false }],
  ];
  for (const [operator, operand, range] of cases) {
    it(`${operator} ${JSON.stringify(operand)}`, () => {
      const compiled = compileFilter(
        { junction: 'and', conditions: [{ field: 'd', operator, operands: [operand] }] },
        now,
      );
      assert.deepEqual(compiled, { junction: 'and', conditions: [{ field: 'd', test: { type: 'time', range } }] });
    });
  }

  it('other operators compile to their tests', () => {
    const compiled = compileFilter(
      {
        junction: 'or',
        conditions: [
          { field: 'a', operator: '$not_in', operands: ['x'] },
          { field: 'b', operator: '$not_contain', operands: ['y'] },
          { field: 'c', operator: '$less_than_equal', operands: [4] },
          { field: 'd', operator: '$count_more', operands: [1] },
          { field: 'e', operator: '$is_unknown', operands: [] },
        ],
      },
      now,
    );
    assert.deepEqual(
      compiled.conditions.map((c) => c.test),
      [
        { type: 'equals', values: ['x'], negate: true },
        { type: 'text', mode: 'contains', values: ['y'], negate: true },
        { type: 'compare', cmp: '<=', value: 4 },
        { type: 'count', cmp: '>', value: 1 },
        { type: 'present', negate: true },
      ],
    );
  });
});
