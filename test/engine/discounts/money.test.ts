import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentOf, splitCapped } from '../../../src/engine/discounts/index.js';

describe('engine: percentages of minor units', () => {
  const cases: Array<[number, number, number]> = [
    [1004, 12.5, 126], // 125.5: half goes up
    [1003, 12.5, 125], // 125.375
    [1500, 2.3, 35], // 34.5 exactly; 1500 * 2.3 / 100 in floating point is 34.4999...
    [999, 0.1, 1], // 0.999
    [5, 10, 1], // 0.5
    [4, 10, 0], // 0.4
    [20050, 10, 2005],
    [12345, 100, 12345],
    [12345, 150, 12345], // a percentage beyond 100 takes no more than all
    [0, 50, 0],
    [700, 0, 0],
    [1, 1e-7, 0],
    [Number.MAX_SAFE_INTEGER, 50, 4503599627370496], // exact beyond 2^53 on the way: 4503599627370495.5 -> up
  ];
  for (const [amount, percent, expected] of cases) {
    it(`${percent}% of ${amount} is ${expected}`, () => assert.equal(percentOf(amount, percent), expected));
  }

  it('whole percentages (the floating-point path) agree with exact BigInt half-up on 20000 amounts', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let k = 0; k < 20000; k += 1) {
      const amount = k < 10000 ? next() : next() * 512 + (next() % 512); // up to ~2^40
      const percent = next() % 101;
      const exact = Number((BigInt(amount) * BigInt(percent) * 2n + 100n) / 200n);
      assert.equal(percentOf(amount, percent), exact, `${percent}% of ${amount}`);
    }
  });
});

describe('engine: largest-remainder splits with caps', () => {
  const cases: Array<[string, number, number[], number[], number[]]> = [
    ['exact shares', 1000, [2000, 8000], [2000, 8000], [200, 800]],
    ['the unit left over goes to the largest remainder', 10, [1500, 400, 1000], [1500, 400, 1000], [5, 1, 4]],
    ['equal remainders: the earlier part', 2, [1, 1, 1], [9, 9, 9], [1, 1, 0]],
    ['a part beyond its cap keeps the cap; the others share the rest', 1500, [3, 2], [1500, 400], [1100, 400]],
    ['caps cascade', 100, [1, 1, 1], [10, 20, 1000], [10, 20, 70]],
    ['more than the caps hold gives the caps', 5000, [1, 1], [100, 200], [100, 200]],
    ['zero weights and zero caps take nothing', 90, [0, 1, 1], [50, 0, 100], [0, 0, 90]],
    ['nothing to share', 0, [1, 2], [5, 5], [0, 0]],
    ['no weight at all', 10, [0, 0], [5, 5], [0, 0]],
    [
      'sums beyond 2^53 in the products stay exact',
      9007199254740991,
      [3, 1],
      [9007199254740991, 9007199254740991],
      [6755399441055743, 2251799813685248],
    ],
  ];
  for (const [name, total, weights, caps, expected] of cases) {
    it(name, () => assert.deepEqual(splitCapped(total, weights, caps), expected));
  }
});
