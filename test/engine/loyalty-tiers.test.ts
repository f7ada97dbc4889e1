import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  periodOf,
  qualificationPeriod,
  tierDates,
  tierFor,
  tierMove,
  type HeldTier,
  type TierRange,
} from '../../src/engine/loyalty/tiers.js';

describe('tier engine', () => {
  it('finds calendar periods, with offsets across years', () => {
    const cases: Array<[Parameters<typeof periodOf>, { start: string; end: string }]> = [
      [['MONTH', '2024-02-10'], { start: '2024-02-01', end: '2024-02-29' }],
      [['MONTH', '2024-12-31', 1], { start: '2025-01-01', end: '2025-01-31' }],
      [['QUARTER', '2024-05-15'], { start: '2024-04-01', end: '2024-06-30' }],
      [['QUARTER', '2024-11-01', 1], { start: '2025-01-01', end: '2025-03-31' }],
      [['HALF_YEAR', '2024-07-01'], { start: '2024-07-01', end: '2024-12-31' }],
      [['YEAR', '2024-03-03', 1], { start: '2025-01-01', end: '2025-12-31' }],
    ];
    for (const [args, expected] of cases) assert.deepEqual(periodOf(...args), expected, JSON.stringify(args));
  });

  it('names the qualification period only for POINTS_IN_PERIOD', () => {
    assert.equal(qualificationPeriod(null), null);
    assert.equal(qualificationPeriod({ qualification_type: 'BALANCE', qualification_period: 'YEAR' }), null);
    assert.equal(
      qualificationPeriod({ qualification_type: 'POINTS_IN_PERIOD', qualification_period: 'QUARTER' }),
      'QUARTER',
    );
    assert.equal(qualificationPeriod({ qualification_type: 'POINTS_IN_PERIOD' }), 'MONTH');
  });

  it("dates a tier by the program's expiration rules", () => {
    const cases: Array<[Parameters<typeof tierDates>[0], { start_date: string; expiration_date: string | null }]> = [
      [null, { start_date: '2024-05-15', expiration_date: null }],
      [{ expiration_date: { type: 'BALANCE_DROP' } }, { start_date: '2024-05-15', expiration_date: null }],
      [
        { qualification_period: 'QUARTER', expiration_date: { type: 'END_OF_PERIOD' } },
        { start_date: '2024-05-15', expiration_date: '2024-06-30' },
      ],
      [
        { qualification_period: 'MONTH', expiration_date: { type: 'END_OF_NEXT_PERIOD' } },
        { start_date: '2024-05-15', expiration_date: '2024-06-30' },
      ],
      [
        {
          qualification_period: 'MONTH',
          start_date: { type: 'NEXT_PERIOD' },
          expiration_date: { type: 'END_OF_PERIOD' },
        },
        { start_date: '2024-06-01', expiration_date: '2024-06-30' },
      ],
      [
        { expiration_date: { type: 'CUSTOM', extend: 'P1Y2M' } },
        { start_date: '2024-05-15', expiration_date: '2025-07-15' },
      ],
      [
        { expiration_date: { type: 'CUSTOM', extend: 'P2W' } },
        { start_date: '2024-05-15', expiration_date: '2024-05-29' },
      ],
    ];
    for (const [rules, expected] of cases)
      assert.deepEqual(tierDates(rules, '2024-05-15'), expected, JSON.stringify(rules));
  });

  it('finds the tier whose inclusive range holds the points', () => {
    const tiers: TierRange[] = [
      { id: 'a', from: 10, to: 99 },
      { id: 'b', from: 100, to: null },
    ];
    assert.deepEqual(
      [0, 9, 10, 99, 100, 1e9].map((p) => tierFor(tiers, p)?.id ?? null),
      [null, null, 'a', 'a', 'b', 'b'],
    );
  });

  it('decides the move a points change makes', () => {
    const low: TierRange = { id: 'low', from: 0, to: 99 };
    const high: TierRange = { id: 'high', from: 100, to: null };
    const held = (id: string, from: number, expiration_date: string | null): HeldTier => ({
      id,
      from,
      expiration_date,
    });
    const today = '2024-06-10';
    const cases: Array<[HeldTier | null, TierRange | null, string | null, string | null]> = [
      [null, null, null, null],
      [null, low, null, 'joined'],
      [held('low', 0, null), low, null, null],
      [held('low', 0, null), high, null, 'upgraded'],
      [held('high', 100, null), low, null, 'downgraded'],
      [held('high', 100, null), null, null, 'left'],
      [held('high', 100, '2024-06-30'), low, '2024-06-30', null], // kept until the period ends
      [held('high', 100, '2024-06-30'), null, '2024-06-30', null],
      [held('low', 0, '2024-06-30'), high, '2024-06-30', 'upgraded'],
      [held('high', 100, '2024-06-09'), low, '2024-06-30', 'downgraded'], // lapsed
      [held('high', 100, '2024-06-09'), null, '2024-06-30', 'left'],
      [held('high', 100, '2024-06-09'), high, '2024-06-30', 'prolonged'],
      [held('high', 100, '2024-06-30'), high, '2024-06-30', null],
      [held('high', 100, '2024-06-30'), high, '2024-07-31', 'prolonged'],
    ];
    for (const [h, target, expiration, expected] of cases)
      assert.equal(tierMove(h, target, today, expiration), expected, JSON.stringify([h, target, expiration]));
  });
});
