import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldCatalog, matchesFilter, validateFilter } from '../../src/engine/conditions/index.js';

/** Every operator, table by table: [field, operator, operands, value, expected]. */
const NOW = new Date('2024-06-15T12:00:00.000Z');
const catalog = fieldCatalog(
  { name: 'string', price: 'number', created_at: 'date', tags: 'string_array' },
  { 'metadata.': 'any' },
);

type Case = [field: string, operator: string, operands: unknown[], value: unknown, expected: boolean];

function evaluate([field, operator, operands, value]: Case): boolean {
  const checked = validateFilter({ junction: 'and', [field]: { conditions: { [operator]: operands } } }, catalog);
  assert.ok(checked.ok, `filter refused: ${checked.ok ? '' : checked.errors.join('; ')}`);
  return matchesFilter(checked.filter, (f) => (f === field ? value : undefined), NOW);
}

function runTable(cases: Case[]): void {
  for (const c of cases) {
    it(`${c[0]} ${c[1]} ${JSON.stringify(c[2])} on ${JSON.stringify(c[3])} is ${c[4]}`, () => {
      assert.equal(evaluate(c), c[4]);
    });
  }
}

describe('conditions: equality ($in, $not_in, $is, $is_not)', () => {
  runTable([
    ['name', '$in', ['a', 'b'], 'a', true],
    ['name', '$in', ['a', 'b'], 'c', false],
    ['name', '$in', ['a'], null, false],
    ['name', '$in', ['a'], undefined, false],
    ['name', '$not_in', ['a', 'b'], 'c', true],
    ['name', '$not_in', ['a', 'b'], 'b', false],
    ['name', '$not_in', ['a'], null, true],
    ['name', '$is', ['a'], 'a', true],
    ['name', '$is', ['a'], 'A', false],
    ['name', '$is_not', ['a'], 'a', false],
    ['name', '$is_not', ['a'], 'b', true],
    ['price', '$in', [100, 200], 200, true],
    ['price', '$is', [100], 100.0, true],
    ['price', '$is', [100], 101, false],
    ['tags', '$in', ['y'], ['x', 'y'], true],
    ['tags', '$in', ['z'], ['x', 'y'], false],
    ['tags', '$is_not', ['y'], ['x', 'y'], false],
    ['tags', '$not_in', ['z'], ['x', 'y'], true],
    ['metadata.k', '$is', [100], '100', false],
    ['metadata.k', '$is', ['100'], 100, false],
    ['metadata.k', '$is', [true], true, true],
    ['metadata.k', '$is', [true], 1, false],
    ['metadata.k', '$is', [false], false, true],
    ['metadata.k', '$in', ['red', 3], 3, true],
    ['metadata.k', '$in', ['red'], ['blue', 'red'], true],
    ['metadata.k', '$in', ['red'], [['red']], false],
    ['metadata.k', '$in', ['red'], { color: 'red' }, false],
    ['metadata.k', '$not_in', ['red'], { color: 'red' }, true],
  ]);
});

describe('conditions: presence ($has_value, $is_unknown)', () => {
  runTable([
    ['name', '$has_value', [], 'a', true],
    ['name', '$has_value', [], '', false],
    ['name', '$has_value', [], null, false],
    ['name', '$has_value', [], undefined, false],
    ['name', '$is_unknown', [], null, true],
    ['name', '$is_unknown', [], 'a', false],
    ['price', '$has_value', [], 0, true],
    ['tags', '$has_value', [], [], false],
    ['tags', '$has_value', ['ignored'], ['a'], true],
    ['metadata.k', '$has_value', [], false, true],
    ['metadata.k', '$has_value', [], [null], true],
    ['metadata.k', '$has_value', [], {}, true],
    ['metadata.k', '$is_unknown', [], [], true],
    ['metadata.k', '$is_unknown', [], '', true],
  ]);
});

describe('conditions: text ($contains, $not_contain, $starts_with, $ends_with)', () => {
  runTable([
    ['name', '$contains', ['ell'], 'hello', true],
    ['name', '$contains', ['ELL'], 'hello', false],
    ['name', '$contains', ['x', 'lo'], 'hello', true],
    ['name', '$contains', ['x'], null, false],
    ['name', '$not_contain', ['ell'], 'hello', false],
    ['name', '$not_contain', ['xyz'], 'hello', true],
    ['name', '$not_contain', ['xyz'], null, true],
    ['name', '$starts_with', ['he'], 'hello', true],
    ['name', '$starts_with', ['lo'], 'hello', false],
    ['name', '$ends_with', ['lo'], 'hello', true],
    ['name', '$ends_with', ['xhello'], 'hello', false],
    ['name', '$ends_with', ['he'], 'hello', false],
    ['tags', '$ends_with', ['red'], ['shirt-blue', 'shirt-red'], true],
    ['tags', '$starts_with', ['pants'], ['shirt-red'], false],
    ['metadata.k', '$contains', ['2'], 123, false],
    ['metadata.k', '$contains', ['é'], 'café', true],
  ]);
});

describe('conditions: numbers ($more_than, $less_than, $more_than_equal, $less_than_equal)', () => {
  runTable([
    ['price', '$more_than', [10], 11, true],
    ['price', '$more_than', [10], 10, false],
    ['price', '$more_than_equal', [10], 10, true],
    ['price', '$more_than_equal', [10], 9, false],
    ['price', '$less_than', [10], 9, true],
    ['price', '$less_than', [10], 10, false],
    ['price', '$less_than_equal', [10], 10, true],
    ['price', '$less_than_equal', [10], 11, false],
    ['price', '$less_than', [10], null, false],
    ['price', '$less_than', [0.5], -1, true],
    ['metadata.k', '$more_than', [10], '11', false],
    ['metadata.k', '$more_than', [10], [5, 20], true],
    ['metadata.k', '$more_than', [10], true, false],
  ]);
});

describe('conditions: absolute dates ($after, $before)', () => {
  runTable([
    ['created_at', '$after', ['2024-01-01'], '2024-01-01T00:00:00.001Z', true],
    ['created_at', '$after', ['2024-01-01'], '2024-01-01T00:00:00.000Z', false],
    ['created_at', '$after', ['2024-01-01T10:00:00+02:00'], '2024-01-01T08:00:00.001Z', true],
    ['created_at', '$before', ['2024-01-01'], '2023-12-31T23:59:59.999Z', true],
    ['created_at', '$before', ['2024-01-01'], '2024-01-01T00:00:00.000Z', false],
    ['created_at', '$before', ['2024-01-01'], null, false],
    ['metadata.k', '$after', ['2024-01-01'], '2024-01-02', true],
    ['metadata.k', '$after', ['2024-01-01'], '2024-01-01T02:00:00+03:00', false],
    ['metadata.k', '$after', ['2024-01-01'], '2024-01-01T02:00:00+01:00', true],
    ['metadata.k', '$after', ['2024-01-01'], 'next week', false],
    ['metadata.k', '$after', ['2024-01-01'], 1_800_000_000_000, false],
    ['metadata.k', '$before', ['2024-01-01'], ['2025-01-01', '2020-05-05'], true],
  ]);
});

describe('conditions: dates relative to now (2024-06-15T12:00:00Z)', () => {
  runTable([
    ['created_at', '$is_days_ago', [0], '2024-06-15T00:00:00.000Z', true],
    ['created_at', '$is_days_ago', [0], '2024-06-14T23:59:59.999Z', false],
    ['created_at', '$is_days_ago', [1], '2024-06-14T00:00:00.000Z', true],
    ['created_at', '$is_days_ago', [1], '2024-06-14T23:59:59.999Z', true],
    ['created_at', '$is_days_ago', [1], '2024-06-13T23:59:59.999Z', false],
    ['created_at', '$is_days_in_future', [1], '2024-06-16T00:00:00.000Z', true],
    ['created_at', '$is_days_in_future', [1], '2024-06-17T00:00:00.000Z', false],
    ['created_at', '$is_days_in_future', [0], '2024-06-15T23:59:59.999Z', true],
    ['created_at', '$more_than_ago', [7], '2024-06-08T11:59:59.999Z', true],
    ['created_at', '$more_than_ago', [7], '2024-06-08T12:00:00.000Z', false],
    ['created_at', '$less_than_ago', [7], '2024-06-08T12:00:00.001Z', true],
    ['created_at', '$less_than_ago', [7], '2024-06-08T12:00:00.000Z', false],
    ['created_at', '$less_than_ago', [7], '2024-06-15T12:00:00.000Z', true],
    ['created_at', '$less_than_ago', [7], '2024-06-15T12:00:00.001Z', false],
    ['created_at', '$more_than_future', [2], '2024-06-17T12:00:00.001Z', true],
    ['created_at', '$more_than_future', [2], '2024-06-17T12:00:00.000Z', false],
    ['created_at', '$less_than_future', [2], '2024-06-15T12:00:00.000Z', true],
    ['created_at', '$less_than_future', [2], '2024-06-17T11:59:59.999Z', true],
    ['created_at', '$less_than_future', [2], '2024-06-17T12:00:00.000Z', false],
    ['created_at', '$less_than_future', [2], '2024-06-15T11:59:59.999Z', false],
    ['metadata.k', '$is_days_ago', [3], '2024-06-12', true],
    ['metadata.k', '$less_than_ago', [1], '2024-06-15T13:00:00+02:00', true],
  ]);
});

describe('conditions: counts ($count, $count_less, $count_more)', () => {
  runTable([
    ['tags', '$count', [2], ['a', 'b'], true],
    ['tags', '$count', [2], ['a'], false],
    ['tags', '$count', [0], null, true],
    ['tags', '$count', [0], [], true],
    ['tags', '$count_less', [1], [], true],
    ['tags', '$count_less', [1], ['a'], false],
    ['tags', '$count_more', [1], ['a', 'b'], true],
    ['tags', '$count_more', [2], ['a', 'b'], false],
    ['metadata.k', '$count', [1], 'scalar', true],
    ['metadata.k', '$count', [1], { a: 1, b: 2 }, true],
    ['metadata.k', '$count', [2], [null, 'x'], true],
    ['metadata.k', '$count', [0], undefined, true],
  ]);
});

describe('conditions: the junction joins every condition, within a field too', () => {
  const filter = (junction: string, fields: Record<string, unknown>) => {
    const checked = validateFilter({ junction, ...fields }, catalog);
    assert.ok(checked.ok);
    return checked.filter;
  };
  const within = { price: { conditions: { $more_than: [10], $less_than: [20] } } };
  const across = { price: { conditions: { $more_than: [10] } }, name: { conditions: { $is: ['x'] } } };
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, boolean]> = [
    ['and', within, { price: 15 }, true],
    ['and', within, { price: 5 }, false],
    ['or', within, { price: 5 }, true],
    ['and', across, { price: 15, name: 'x' }, true],
    ['and', across, { price: 15, name: 'y' }, false],
    ['or', across, { price: 5, name: 'x' }, true],
    ['or', across, { price: 5, name: 'y' }, false],
    ['AND', across, { price: 15, name: 'x' }, true],
    ['OR', across, { price: 5, name: 'y' }, false],
  ];
  for (const [junction, fields, thing, expected] of cases) {
    it(`${junction} over ${JSON.stringify(fields)} on ${JSON.stringify(thing)} is ${expected}`, () => {
      assert.equal(
        matchesFilter(filter(junction, fields), (f) => thing[f], NOW),
        expected,
      );
    });
  }
});

describe('conditions: every operator is covered above', () => {
  it('has a table row for each of the 25 operators', async () => {
    const { OPERATORS } = await import('../../src/engine/conditions/index.js');
    const source = (await import('node:fs')).readFileSync(new URL(import.meta.url), 'utf8');
    const missing = OPERATORS.filter((op) => !source.includes(`'${op}', [`));
    assert.deepEqual(missing, []);
    assert.equal(OPERATORS.length, 25);
  });
});
