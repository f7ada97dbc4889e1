import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shapeDiff } from '../support/shape-diff.js';

// The contract test's comparison (test/support/shape-diff.ts) is only as good as this.
describe('shapeDiff', () => {
  it('agrees when only values differ', () => {
    const example = { id: 'cust_1', amount: 1000, tags: ['a'], address: { city: 'X', line_1: null }, updated_at: null };
    const answer = { id: 'cust_2', amount: 25, tags: ['b', 'c'], address: { city: 'Y', line_1: null }, updated_at: null };
    assert.deepEqual(shapeDiff(example, answer), []);
  });

  it('tells absent, null, empty and zero apart, with the path a client reads', () => {
    const example = { a: null, b: { c: 'x' }, d: 5, e: [{ f: 'y' }], g: { h: 1 }, i: 'text' };
    const answer = { a: {}, b: null, d: 0, e: [], g: {}, j: [], i: '' };
    assert.deepEqual(shapeDiff(example, answer), [
      'a: {}, the example has null',
      'b: null, the example has object',
      'd: 0, the example has number',
      'e: [], the example has 1 item(s)',
      'g.h: absent, the example has number',
      'j: [], absent in the example',
      'i: "", the example has string',
    ]);
  });

  it('reports a non-empty answer where the example has [] or {}, and a value where it has null', () => {
    assert.deepEqual(shapeDiff({ l: [], m: {}, n: null }, { l: [1], m: { k: 1 }, n: 0 }), [
      'l: 1 item(s), the example has []',
      'm.k: number, absent in the example',
      'n: 0, the example has null',
    ]);
  });

  it('compares arrays item by item, to the shorter length', () => {
    const example = { data: [{ id: 'a', strict: false }, { id: 'b', strict: false }] };
    assert.deepEqual(shapeDiff(example, { data: [{ id: 'x', strict: false }, { id: 'y' }, { id: 'z' }] }), ['data[1].strict: absent, the example has boolean']);
  });

  it('reports a different type at the root and in arrays of scalars', () => {
    assert.deepEqual(shapeDiff({ a: 1 }, []), ['(root): [], the example has object']);
    assert.deepEqual(shapeDiff({ a: ['x'] }, { a: [1] }), ['a[0]: number, the example has string']);
    assert.deepEqual(shapeDiff([true], [false]), []);
  });
});
