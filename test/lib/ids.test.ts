import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId, randomBase62 } from '../../src/lib/ids.js';

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
    for (const [char, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.1, `${char}: ${n} times, expected about ${Math.round(expected)}`);
  });
});
