import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { padToBucket } from '../../src/db/batches.js';

describe('padToBucket', () => {
  it('keeps short lists, pads longer ones with their last key to a few lengths', () => {
    const lengths = [0, 1, 8, 9, 16, 17, 100, 257, 400].map(
      (n) => padToBucket(Array.from({ length: n }, (_, i) => i)).length,
    );
    assert.deepEqual(lengths, [0, 1, 8, 16, 16, 32, 128, 400, 400]);
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    assert.deepEqual(padToBucket(keys), [...keys, ...Array.from({ length: 6 }, () => 'j')]);
  });
});
