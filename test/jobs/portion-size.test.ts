import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BESIDE_WRITES_PORTION_MS,
  MAX_PORTION,
  MIN_PORTION,
  nextPortionSize,
  nextTarget,
  QUIET_PORTION_MS,
  TARGET_PORTION_MS,
} from '../../src/jobs/portion-size.js';
import type { Neighbours } from '../../src/db/engine.js';

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
    for (const [current, items, ms, target, next] of cases)
      assert.equal(nextPortionSize(current, items, ms, target), next, `${current} ${items} ${ms} ${target}`);
    assert.deepEqual([TARGET_PORTION_MS, BESIDE_WRITES_PORTION_MS, QUIET_PORTION_MS], [80, 40, 400]);
  });

  it('fall to a lower target at once, but a slow portion at the same target only halves them', () => {
    const cases: Array<[current: number, ms: number, target: number, lastTarget: number, next: number]> = [
      [5000, 400, 40, 400, 500],
      [5000, 800, 40, 400, 250],
      [5000, 400, 80, 400, 1000],
      [5000, 4000, 400, 400, 2500],
      [1000, 80, 160, 80, 2000],
    ];
    for (const [current, ms, target, lastTarget, next] of cases)
      assert.equal(
        nextPortionSize(current, current, ms, target, lastTarget),
        next,
        `${current} ${ms} ${target} ${lastTarget}`,
      );
  });

  it('target 40 ms as soon as someone else writes, grow x2 up to 400 ms while nobody does, 80 ms when unknown', () => {
    const cases: Array<[current: number, neighbours: Neighbours, next: number]> = [
      [80, 'quiet', 160],
      [40, 'quiet', 80],
      [160, 'quiet', 320],
      [320, 'quiet', 400],
      [400, 'quiet', 400],
      [400, 'writing', 40],
      [80, 'writing', 40],
      [400, 'unknown', 80],
      [40, 'unknown', 80],
    ];
    for (const [current, neighbours, next] of cases)
      assert.equal(nextTarget(current, neighbours), next, `${current} ${neighbours}`);
  });

  it("stays at 80 ms under a lower ceiling (promo serve's: its own API's next write must not wait behind a long portion)", () => {
    assert.deepEqual(
      [nextTarget(80, 'quiet', 80), nextTarget(40, 'quiet', 80), nextTarget(80, 'writing', 80)],
      [80, 80, 40],
    );
  });
});
