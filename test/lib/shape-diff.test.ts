import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shapeDiff } from '../support/shape-diff.js';

// The contract test's comparison (test/support/shape-diff.ts) is only as good as this.
describe('shapeDiff', () => {
  it('agrees when only values differ', () => {
    const example = { id: 'cust_1', amount: 1000, tags: ['a'], address: { city: 'X', line_1: null }, updated_at: null };
    const answer = {
      id: 'cust_2',
      amount: 25,
      tags: ['b', 'c'],
      address: { city: 'Y', line_1: null },
      updated_at: null,
    };
    assert.deepEqual(shapeDiff(example, answer), []);
  });

  it('tells absent, null, empty and zero apart, with the path a client reads', () => {
    const example = { a: null, b: { c: 'x' }, d: null, g: { h: 1 }, i: 'text' };
    const answer = { a: {}, b: null, d: 0, g: {}, j: [], i: '' };
    assert.deepEqual(shapeDiff(example, answer), [
      'a: {}, the example has null',
      'b: null, the example has object',
      'd: 0, the example has null',
      'g.h: absent, the example has number',
      'j: [], absent in the example',
    ]);
  });

  it('reports keys where the example has {}, and takes how many items a list holds for data', () => {
    assert.deepEqual(shapeDiff({ l: [], m: {}, n: [1, 2] }, { l: [1], m: { k: 1 }, n: [] }), [
      'm.k: number, absent in the example',
    ]);
  });

  it('takes the keys of metadata and other maps of data for data, but compares their values and emptiness', () => {
    const example = {
      metadata: { lang: 'en' },
      loyalty: { campaigns: { Summer: { points: 1, referred_customers: 2 } } },
      rules: {},
    };
    const answer = {
      metadata: { region: 'EU' },
      loyalty: { campaigns: { Club: { points: 5 } } },
      rules: { logic: '' },
    };
    assert.deepEqual(shapeDiff(example, answer), [
      'loyalty.campaigns.Club.referred_customers: absent, the example has number',
      'rules: object, the example has {}',
    ]);
    assert.deepEqual(shapeDiff({ metadata: {} }, { metadata: { a: 1 } }), []);
    assert.deepEqual(shapeDiff({ metadata: null }, { metadata: {} }), ['metadata: {}, the example has null']);
  });

  it('compares arrays item by item, to the shorter length', () => {
    const example = {
      data: [
        { id: 'a', strict: false },
        { id: 'b', strict: false },
      ],
    };
    assert.deepEqual(shapeDiff(example, { data: [{ id: 'x', strict: false }, { id: 'y' }, { id: 'z' }] }), [
      'data[1].strict: absent, the example has boolean',
    ]);
  });

  it('reports a different type at the root and in arrays of scalars', () => {
    assert.deepEqual(shapeDiff({ a: 1 }, []), ['(root): [], the example has object']);
    assert.deepEqual(shapeDiff({ a: ['x'] }, { a: [1] }), ['a[0]: number, the example has string']);
    assert.deepEqual(shapeDiff([true], [false]), []);
  });
});
