import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fieldCatalog,
  readQueryFilters,
  type Condition,
  type QueryFilterRules,
} from '../../src/engine/conditions/index.js';

/**
 * The `filters` deep object of a list's query (engine/conditions/query-filters.ts): what an
 * index serves comes back as conditions, what the bounded window can check as `residual`
 * (lists that have a window), and the rest is refused by name.
 */
const catalog = fieldCatalog({ code: 'string', created_at: 'date' });
const indexed = (c: Condition) => c.field === 'code' && c.operator === '$is';
const windowed: QueryFilterRules = {
  catalog,
  accepts: indexed,
  served: 'code with anything',
  windowable: (c) => c.operator !== '$after',
};
const indexOnly: QueryFilterRules = { catalog, accepts: indexed, served: 'code with $is' };

const is = (value: string): Condition => ({ field: 'code', operator: '$is', operands: [value] });
const isNot = (value: string): Condition => ({ field: 'code', operator: '$is_not', operands: [value] });

describe('readQueryFilters', () => {
  const cases: Array<[string, Record<string, unknown>, QueryFilterRules, unknown]> = [
    ['no filters', { limit: '10' }, windowed, { ok: true, conditions: [], rest: { limit: '10' } }],
    [
      'an indexed condition',
      { 'filters[code][conditions][$is]': 'A', page: '2' },
      windowed,
      { ok: true, conditions: [is('A')], rest: { page: '2' } },
    ],
    [
      'an indexed and a windowed condition, joined by and',
      { 'filters[code][conditions][$is]': 'A', 'filters[code][conditions][$is_not]': 'B' },
      windowed,
      { ok: true, conditions: [is('A')], residual: { junction: 'and', conditions: [isNot('B')] }, rest: {} },
    ],
    [
      'an or of several conditions: all of them in the window',
      { 'filters[junction]': 'OR', 'filters[code][conditions][$is]': 'A', 'filters[code][conditions][$is_not]': 'B' },
      windowed,
      { ok: true, conditions: [], residual: { junction: 'or', conditions: [is('A'), isNot('B')] }, rest: {} },
    ],
    [
      'an or of one condition is that condition',
      { 'filters[junction]': 'or', 'filters[code][conditions][$is]': 'A' },
      windowed,
      { ok: true, conditions: [is('A')], rest: {} },
    ],
    [
      'neither indexed nor windowable: refused',
      { 'filters[created_at][conditions][$after]': '2024-01-01' },
      windowed,
      {
        ok: false,
        error:
          'filters.created_at.conditions.$after is not served by an index; the filters served are code with anything',
      },
    ],
    [
      'a list without a window refuses what no index serves',
      { 'filters[code][conditions][$is_not]': 'B' },
      indexOnly,
      {
        ok: false,
        error: 'filters.code.conditions.$is_not is not served by an index; the filters served are code with $is',
      },
    ],
    [
      'a list without a window refuses an or of several',
      { 'filters[junction]': 'or', 'filters[code][conditions][$is]': 'A', 'filters[code][conditions][$in]': 'B' },
      { ...indexOnly, accepts: () => true },
      { ok: false, error: 'filters.junction "or" of several conditions is not served by an index; use "and"' },
    ],
  ];
  for (const [name, query, rules, expected] of cases) {
    it(name, () => assert.deepEqual(readQueryFilters(query, rules), expected));
  }
});
