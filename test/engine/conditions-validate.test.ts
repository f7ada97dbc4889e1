import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldCatalog, validateFilter } from '../../src/engine/conditions/index.js';

const catalog = fieldCatalog(
  { name: 'string', price: 'number', created_at: 'date', tags: 'string_array' },
  { 'metadata.': 'any' },
);
const ALLOWED = 'name, price, created_at, tags, metadata.<key>';

const field = (name: string, conditions: unknown) => ({ junction: 'and', [name]: { conditions } });

/** [what, filter, every error the validator reports] */
const refused: Array<[string, unknown, string[]]> = [
  ['not an object', [], ['filter must be an object']],
  ['null', null, ['filter must be an object']],
  ['no junction', { name: { conditions: { $is: ['a'] } } }, ['filter.junction is required and must be "and" or "or"']],
  [
    'bad junction',
    { junction: 'xor', name: { conditions: { $is: ['a'] } } },
    ['filter.junction is required and must be "and" or "or"'],
  ],
  ['no field', { junction: 'and' }, ['filter must name at least one field condition']],
  ['unknown field', field('colour', { $is: ['a'] }), [`filter.colour is not a known field; allowed: ${ALLOWED}`]],
  [
    'empty metadata key',
    field('metadata.', { $is: ['a'] }),
    ['filter.metadata.: the field name needs a key after the prefix'],
  ],
  [
    'quote in a metadata key',
    field('metadata.a"b', { $is: ['a'] }),
    ['filter.metadata.a"b: the field name must not contain double quotes or backslashes'],
  ],
  [
    'field without conditions',
    { junction: 'and', name: { $is: ['a'] } },
    ['filter.name must be an object {"conditions": {<operator>: [...]}}'],
  ],
  [
    'extra key beside conditions',
    { junction: 'and', name: { conditions: { $is: ['a'] }, x: 1 } },
    ['filter.name takes only "conditions", not: x'],
  ],
  ['empty conditions', field('name', {}), ['filter.name.conditions must name at least one operator']],
  ['unknown operator', field('name', { $like: ['a'] }), ['filter.name.conditions.$like is not a known operator']],
  [
    'operator for another kind',
    field('price', { $after: ['2024-01-01'] }),
    ['filter.price.conditions.$after does not apply to price (a number field)'],
  ],
  [
    'count on a string',
    field('name', { $count: [1] }),
    ['filter.name.conditions.$count does not apply to name (a string field)'],
  ],
  [
    'text on a date',
    field('created_at', { $contains: ['2024'] }),
    ['filter.created_at.conditions.$contains does not apply to created_at (a date field)'],
  ],
  [
    'equality on a date',
    field('created_at', { $is: ['2024'] }),
    ['filter.created_at.conditions.$is does not apply to created_at (a date field)'],
  ],
  ['not an array', field('name', { $in: 'a' }), ['filter.name.conditions.$in must be an array']],
  ['empty $in', field('name', { $in: [] }), ['filter.name.conditions.$in must be an array of one or more strings']],
  [
    'number in a string $in',
    field('name', { $in: ['a', 1] }),
    ['filter.name.conditions.$in must be an array of one or more strings'],
  ],
  [
    'string in a number $in',
    field('price', { $in: ['1'] }),
    ['filter.price.conditions.$in must be an array of one or more numbers'],
  ],
  [
    'object in a metadata $in',
    field('metadata.k', { $in: [{ a: 1 }] }),
    ['filter.metadata.k.conditions.$in must be an array of one or more strings, numbers or booleans'],
  ],
  [
    'two operands for $is',
    field('name', { $is: ['a', 'b'] }),
    ['filter.name.conditions.$is must be an array of exactly one of: strings'],
  ],
  [
    'empty string for $contains',
    field('name', { $contains: [''] }),
    ['filter.name.conditions.$contains must be an array of one or more non-empty strings'],
  ],
  [
    'string for $more_than',
    field('price', { $more_than: ['5'] }),
    ['filter.price.conditions.$more_than must be an array of exactly one number'],
  ],
  [
    'two numbers for $less_than',
    field('price', { $less_than: [1, 2] }),
    ['filter.price.conditions.$less_than must be an array of exactly one number'],
  ],
  [
    'non-date for $after',
    field('created_at', { $after: ['soon'] }),
    ['filter.created_at.conditions.$after must be an array of exactly one ISO 8601 date or date-time'],
  ],
  [
    'negative days',
    field('created_at', { $is_days_ago: [-1] }),
    [
      'filter.created_at.conditions.$is_days_ago must be an array of exactly one non-negative integer (a number of days)',
    ],
  ],
  [
    'fractional days',
    field('created_at', { $more_than_ago: [1.5] }),
    [
      'filter.created_at.conditions.$more_than_ago must be an array of exactly one non-negative integer (a number of days)',
    ],
  ],
  [
    'string count',
    field('tags', { $count_more: ['2'] }),
    ['filter.tags.conditions.$count_more must be an array of exactly one non-negative integer'],
  ],
  [
    '$has_value not an array',
    field('name', { $has_value: '' }),
    ['filter.name.conditions.$has_value must be an array'],
  ],
  [
    'every problem at once',
    { junction: 'nand', colour: {}, price: { conditions: { $bogus: [1], $in: ['a'], $after: ['2020-01-01'] } } },
    [
      'filter.junction is required and must be "and" or "or"',
      `filter.colour is not a known field; allowed: ${ALLOWED}`,
      'filter.price.conditions.$bogus is not a known operator',
      'filter.price.conditions.$in must be an array of one or more numbers',
      'filter.price.conditions.$after does not apply to price (a number field)',
    ],
  ],
];

describe('validateFilter refuses, naming each problem', () => {
  for (const [what, filter, errors] of refused) {
    it(what, () => {
      assert.deepEqual(validateFilter(filter, catalog), { ok: false, errors });
    });
  }
});

describe('validateFilter accepts', () => {
  it('every operator on metadata, with the junction normalised to lower case', () => {
    const conditions = {
      $in: ['a', 1, true],
      $not_in: ['b'],
      $is: [false],
      $is_not: [2],
      $has_value: [],
      $is_unknown: [''],
      $contains: ['x'],
      $not_contain: ['y'],
      $starts_with: ['s'],
      $ends_with: ['e'],
      $more_than: [1],
      $less_than: [2.5],
      $more_than_ago: [1],
      $less_than_ago: [2],
      $more_than_future: [3],
      $less_than_future: [4],
      $more_than_equal: [0],
      $less_than_equal: [-1],
      $after: ['2024-01-01'],
      $before: ['2024-01-01T10:00:00Z'],
      $is_days_ago: [0],
      $is_days_in_future: [7],
      $count: [0],
      $count_less: [1],
      $count_more: [2],
    };
    const input = { junction: 'OR', 'metadata.color': { conditions } };
    const result = validateFilter(input, catalog);
    assert.ok(result.ok);
    assert.equal(result.filter.junction, 'or');
    assert.equal(result.filter.conditions.length, 25);
    assert.deepEqual(result.json, { junction: 'or', 'metadata.color': { conditions } });
    assert.deepEqual(result.filter.conditions[0], {
      field: 'metadata.color',
      operator: '$in',
      operands: ['a', 1, true],
    });
  });

  it('a metadata key with dots and spaces', () => {
    const result = validateFilter(field('metadata.a.b c', { $is: ['x'] }), catalog);
    assert.ok(result.ok);
    assert.deepEqual(result.filter, {
      junction: 'and',
      conditions: [{ field: 'metadata.a.b c', operator: '$is', operands: ['x'] }],
    });
  });
});
