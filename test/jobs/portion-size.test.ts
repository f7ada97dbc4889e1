import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BESIDE_WRITES_PORTION_MS, MAX_PORTION, MIN_PORTION, nextPortionSize, TARGET_PORTION_MS } from '../../src/jobs/portion-size.js';

describe('portion sizes', () => {
  it('scale toward the target duration, at most x2 or /2 a step, within bounds', () => {
    const cases: Array<[current: number, items: number, ms: number, target: number | undefined, next: number]> = [
      [1000, 1000, 80, undefined, 1000],
      [1000, 1000, 40, undefined, 2000],
      [1000, 1000, 10, undefined, 2000],
      [1000, 1000, 160, undefined, 500],
      [1000, 1000, 1000, undefined, 500],
      [1000, 1000, 80, 40, 500],
      [1000, 1000, 60, 40, 667],
      [1000, 1000, 40, 40, 1000],
      [1000, 400, 10, undefined, 1000], // a short last portion says nothing
      [1000, 1000, 0, undefined, 1000],
      [15, 15, 1000, undefined, MIN_PORTION],
      [15_000, 15_000, 10, undefined, MAX_PORTION],
    ];
    for (const [current, items, ms, target, next] of cases) assert.equal(nextPortionSize(current, items, ms, target), next, `${current} ${items} ${ms} ${target}`);
    assert.deepEqual([TARGET_PORTION_MS, BESIDE_WRITES_PORTION_MS], [80, 40]);
  });
});
