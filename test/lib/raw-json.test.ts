import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RawJson, stringifyJson } from '../../src/lib/raw-json.js';

describe('stringifyJson', () => {
  const order = {
    id: 'ord_1',
    amount: 1500,
    items: [{ product_id: 'prod_1', quantity: 2 }],
    metadata: { note: 'a "quoted" \u0000 value', '2': 'x', '1': 'y' },
  };
  const text = JSON.stringify(order);

  it('writes each RawJson as its text, byte for byte what JSON.stringify writes for the object', () => {
    const plain = {
      redemptions: [
        { id: 'r_1', order },
        { id: 'r_2', order },
      ],
      parent: { order },
      order,
      empty: null,
    };
    const raw = new RawJson(text);
    const spliced = {
      redemptions: [
        { id: 'r_1', order: raw },
        { id: 'r_2', order: raw },
      ],
      parent: { order: raw },
      order: raw,
      empty: null,
    };
    assert.equal(stringifyJson(spliced), JSON.stringify(plain));
  });

  it('is the object its text holds for a plain JSON.stringify, inside stringifyJson and out', () => {
    assert.equal(JSON.stringify({ order: new RawJson(text) }), JSON.stringify({ order }));
    assert.deepEqual(JSON.parse(stringifyJson({ a: new RawJson('[1,2]'), b: new RawJson('"s"') })), {
      a: [1, 2],
      b: 's',
    });
  });

  it('leaves a string that merely looks like a marker alone, and serializes without RawJson as JSON.stringify does', () => {
    const tricky = { s: '\u0000abc0', t: '"\\u0000', n: 1 };
    assert.equal(stringifyJson(tricky), JSON.stringify(tricky));
    assert.equal(stringifyJson({ a: new RawJson('{}'), s: '\u0000abc0' }), '{"a":{},"s":"\\u0000abc0"}');
  });
});
