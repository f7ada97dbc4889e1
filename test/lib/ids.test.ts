import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId, randomBase62, timeOrderedId, timeOrderedIds } from '../../src/lib/ids.js';

describe('ids', () => {
  it('are the prefix and 16 base62 characters, all different', () => {
    const ids = Array.from({ length: 50_000 }, () => newId('ord_'));
    for (const id of ids.slice(0, 1000)) assert.match(id, /^ord_[0-9A-Za-z]{16}$/);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('draw every base62 character about equally often, across many refills of the random pool', () => {
    const counts = new Map<string, number>();
    const text = Array.from({ length: 20_000 }, () => randomBase62(31)).join('');
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    assert.equal(counts.size, 62);
    const expected = text.length / 62;
    for (const [char, n] of counts)
      assert.ok(Math.abs(n - expected) < expected * 0.1, `${char}: ${n} times, expected about ${Math.round(expected)}`);
  });

  it('time-ordered ones are the prefix, 8 characters of time that sort as the time, and 8 random ones', () => {
    const times = [
      '1970-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.001Z',
      '2024-01-01T00:00:00.062Z',
      '2026-11-26T02:40:00.000Z',
    ];
    const ids = times.map((at) => timeOrderedId('ord_', at));
    for (const id of ids) assert.match(id, /^ord_[0-9A-Za-z]{16}$/);
    assert.equal(ids[0]?.slice(4, 12), '00000000');
    assert.deepEqual(
      ids.map((id) => id.slice(4, 12)).sort(),
      ids.map((id) => id.slice(4, 12)),
    );
    assert.equal(new Set(ids.map((id) => id.slice(4, 12))).size, times.length);
    const sameMs = timeOrderedIds('cust_', Date.parse(times[1] as string));
    const batch = Array.from({ length: 50_000 }, sameMs);
    assert.equal(new Set(batch).size, batch.length);
    assert.ok(batch.every((id) => id.startsWith(`cust_${ids[1]?.slice(4, 12)}`)));
  });
});
