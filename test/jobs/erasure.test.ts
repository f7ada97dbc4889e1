import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERASED, jsonNames, scrubJson } from '../../src/jobs/erasure.service.js';

const IDS = ['cust_0123456789abcdef', 'zed-crm-4711', 'zed@example.org', '42'];

/** What a permanent deletion leaves of job data (payloads, results, item bodies): one case a row. */
describe('scrubJson: job data without the customer', () => {
  const cases: Array<[string, unknown, unknown]> = [
    [
      'a string equal to an identifier',
      { filter: ['zed@example.org', 'amy@example.org'] },
      { filter: [ERASED, 'amy@example.org'] },
    ],
    ['a longer text that contains one', { reason: 'Customer zed-crm-4711 is blocked' }, { reason: ERASED }],
    [
      'a short identifier only as a whole value',
      { values: ['42', 'order 42 of 420'], n: 42 },
      { values: [ERASED, 'order 42 of 420'], n: 42 },
    ],
    [
      'every string of a record that names them, numbers kept',
      { source_id: 'zed-crm-4711', reason: 'email must be valid', n: 3, ok: true },
      { source_id: ERASED, reason: ERASED, n: 3, ok: true },
    ],
    [
      'nested records, the rest untouched',
      { source_id: 'o-1', customer: { source_id: 'zed-crm-4711', name: 'Zebulon' }, amount: 500 },
      { source_id: 'o-1', customer: { source_id: ERASED, name: ERASED }, amount: 500 },
    ],
    ['names alone are not identifiers', { name: 'Zebulon Quist' }, { name: 'Zebulon Quist' }],
    ['scalars and null', null, null],
  ];
  for (const [what, input, expected] of cases) {
    it(what, () => {
      assert.deepEqual(scrubJson(input, IDS), expected);
      assert.equal(jsonNames(JSON.stringify(input), IDS), JSON.stringify(input) !== JSON.stringify(expected));
    });
  }
});
