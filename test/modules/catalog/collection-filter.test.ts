import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  compileFilter,
  evaluateFilter,
  OPERATORS,
  OPERATOR_SPECS,
  validateFilter,
  type FieldKind,
  type Operator,
} from '../../../src/engine/conditions/index.js';
import {
  countCollectionMembers,
  pageOfMembers,
} from '../../../src/modules/catalog/collections/collection-members.repository.js';
import {
  catalogValue,
  COLLECTION_FIELDS,
  type CatalogItem,
} from '../../../src/modules/catalog/collections/collection-fields.rules.js';
import { postgresForTests } from '../../support/postgres.js';
import { NOW, seedCatalog, type Seeded } from './catalog-seed.js';

/**
 * The SQL translation of AUTO_UPDATE filters and the pure evaluator, side by side: every
 * operator on every field it applies to, with many operands, over one seeded catalog of
 * products and SKUs. Both must pick exactly the same members.
 */
const FIELDS: Array<[string, FieldKind]> = [
  ['id', 'string'],
  ['product_id', 'string'],
  ['source_id', 'string'],
  ['name', 'string'],
  ['object', 'string'],
  ['image_url', 'string'],
  ['price', 'number'],
  ['attributes', 'string_array'],
  ['skus', 'string_array'],
  ['created_at', 'date'],
  ['updated_at', 'date'],
  ...['color', 'size', 'tags', 'flag', 'when', 'obj', 'empty', 'missing', 'd'].map((k): [string, FieldKind] => [
    `metadata.${k}`,
    'any',
  ]),
];

const TEXT = [['e'], ['Re'], ['ee'], ['prod_'], ['sku_'], ['x'], ['é'], ['Café'], ['sale'], ['Tee', 'Sock'], ['.png']];
const DATES = [
  ['2024-06-05'],
  ['2024-06-10T08:00:00Z'],
  ['2024-06-14'],
  ['2024-06-15T11:00:00Z'],
  ['2024-06-20'],
  ['2024-02-01'],
];
const DAYS = [[0], [1], [2], [3], [5], [10]];

function equalityOperands(field: string, kind: FieldKind, items: CatalogItem[]): unknown[][] {
  const seen = [
    ...new Set(
      items
        .map((item) => catalogValue(item, field))
        .flat()
        .filter((v) => typeof v === 'string'),
    ),
  ];
  if (kind === 'number') return [[1500], [0], [1450, 300], [7], [4.5]];
  if (kind === 'any')
    return [['red'], ['red', 'blue'], [3], ['3'], [true], [false], [4.5], ['summer'], [5], ['2024-06-14']];
  return [[seen[0] ?? 'zzz'], [seen[1] ?? 'zzz', seen[2] ?? 'yyy'], ['zzz'], ['color'], ['product'], ['sku']];
}

function operandSets(operator: Operator, field: string, kind: FieldKind, items: CatalogItem[]): unknown[][] {
  switch (OPERATOR_SPECS[operator].operands) {
    case 'scalars':
      return equalityOperands(field, kind, items);
    case 'scalar':
      return equalityOperands(field, kind, items).map((set) => [set[0]]);
    case 'ignored':
      return [[]];
    case 'strings':
      return TEXT;
    case 'number':
      return [[0], [300], [1500], [3], [4.5], [-1]];
    case 'date':
      return DATES;
    case 'days':
      return DAYS;
    case 'count':
      return [[0], [1], [2], [3]];
  }
}

interface Case {
  name: string;
  filter: unknown;
}

function singleConditionCases(items: CatalogItem[]): Case[] {
  const cases: Case[] = [];
  for (const [field, kind] of FIELDS) {
    for (const operator of OPERATORS) {
      for (const operands of operandSets(operator, field, kind, items)) {
        const filter = { junction: 'and', [field]: { conditions: { [operator]: operands } } };
        if (validateFilter(filter, COLLECTION_FIELDS).ok)
          cases.push({ name: `${field} ${operator} ${JSON.stringify(operands)}`, filter });
      }
    }
  }
  return cases;
}

const COMBINED: Case[] = [
  {
    name: 'price and metadata (the benchmark shape)',
    filter: {
      junction: 'and',
      price: { conditions: { $less_than: [2000] } },
      'metadata.color': { conditions: { $is: ['red'] } },
    },
  },
  {
    name: 'or across fields',
    filter: {
      junction: 'or',
      object: { conditions: { $is: ['sku'] } },
      'metadata.tags': { conditions: { $in: ['sale'] } },
    },
  },
  {
    name: 'or within a field',
    filter: { junction: 'or', price: { conditions: { $less_than: [400], $more_than: [2000] } } },
  },
  {
    name: 'and with negations',
    filter: {
      junction: 'and',
      name: { conditions: { $not_contain: ['Tee'] } },
      'metadata.color': { conditions: { $is_not: ['blue'], $has_value: [] } },
    },
  },
  {
    name: 'products with many SKUs',
    filter: {
      junction: 'and',
      skus: { conditions: { $count_more: [1] } },
      created_at: { conditions: { $less_than_ago: [14] } },
    },
  },
];

async function viaSql(
  seeded: Seeded,
  filter: ReturnType<typeof compileFilter>,
): Promise<{ ids: string[]; total: number }> {
  const page = await pageOfMembers(
    seeded.deps.db,
    { filter },
    { limit: 100, offset: 0, sort: { field: 'created_at', direction: 'asc' } },
  );
  const total = page.total ?? (await countCollectionMembers(seeded.deps.db, { filter }));
  return { ids: page.rows.map((r) => r.id), total };
}

const viaEvaluator = (items: CatalogItem[], filter: ReturnType<typeof compileFilter>): string[] =>
  items
    .filter((item) => evaluateFilter(filter, (field) => catalogValue(item, field)))
    .sort((a, b) => a.row.created_at.localeCompare(b.row.created_at) || a.row.id.localeCompare(b.row.id))
    .map((item) => item.row.id);

const postgres = await postgresForTests();

/** The same matrix on each engine: SQLite (a file), and PostgreSQL when there is one (skipped, saying why, otherwise). */
const ENGINES: Array<{ engine: string; skip: string | false; location: () => Promise<string | undefined> }> = [
  { engine: 'SQLite', skip: false, location: async () => undefined },
  {
    engine: 'PostgreSQL',
    skip: postgres.skip,
    location: async () => postgres.server?.migratedDatabase(),
  },
];

for (const { engine, skip, location } of ENGINES)
  describe(`AUTO_UPDATE filters on ${engine}: SQL and the pure evaluator agree`, { skip }, () => {
    let seeded: Seeded;
    before(async () => {
      seeded = await seedCatalog(await location());
    });
    after(async () => {
      await seeded?.close();
      if (engine === 'PostgreSQL') await postgres.server?.close();
    });

    it('on every operator, field and operand of the matrix, and on combined filters', async () => {
      const cases = [...singleConditionCases(seeded.items), ...COMBINED];
      const selective = new Set<string>();
      const mismatches: string[] = [];
      for (const c of cases) {
        const checked = validateFilter(c.filter, COLLECTION_FIELDS);
        assert.ok(checked.ok, c.name);
        const compiled = compileFilter(checked.filter, NOW);
        const expected = viaEvaluator(seeded.items, compiled);
        const actual = await viaSql(seeded, compiled);
        if (JSON.stringify(actual) !== JSON.stringify({ ids: expected, total: expected.length })) {
          mismatches.push(`${c.name}: SQL ${JSON.stringify(actual.ids)} / evaluator ${JSON.stringify(expected)}`);
        }
        if (expected.length > 0 && expected.length < seeded.items.length) {
          selective.add(c.name.split(' ')[1] ?? '');
        }
      }
      assert.deepEqual(mismatches, []);
      assert.ok(cases.length > 900, `only ${cases.length} cases`);
      // Each operator picks a proper, non-empty subset somewhere: the matrix is not vacuous.
      assert.deepEqual(
        OPERATORS.filter((op) => !selective.has(op)),
        [],
      );
    });

    it('picks what the seed says on a few hand-checked filters', async () => {
      const named = (ids: string[]) =>
        ids.map((id) => {
          const item = seeded.items.find((i) => i.row.id === id);
          return item
            ? ((catalogValue(item, 'name') as string | null) ?? (catalogValue(item, 'source_id') as string))
            : id;
        });
      const pick = async (filter: unknown) => {
        const checked = validateFilter(filter, COLLECTION_FIELDS);
        assert.ok(checked.ok);
        return named((await viaSql(seeded, compileFilter(checked.filter, NOW))).ids);
      };
      assert.deepEqual(await pick(COMBINED[0]?.filter), ['Red Tee', 'Red Tee M']);
      assert.deepEqual(await pick({ junction: 'and', 'metadata.color': { conditions: { $in: ['red'] } } }), [
        'Red Tee',
        'Red Tee M',
        'mug',
      ]);
      assert.deepEqual(await pick({ junction: 'and', attributes: { conditions: { $in: ['roast'] } } }), [
        'Café au lait',
        'Café 250g',
      ]);
      assert.deepEqual(await pick({ junction: 'and', 'metadata.when': { conditions: { $is_days_ago: [1] } } }), [
        'Red Tee',
      ]);
      assert.deepEqual(await pick({ junction: 'and', 'metadata.d': { conditions: { $after: ['2024-03-01'] } } }), [
        'Gift card',
        'Sock',
      ]);
      assert.deepEqual(await pick({ junction: 'and', updated_at: { conditions: { $has_value: [] } } }), [
        'Red Tee',
        'Red Tee S',
      ]);
    });
  });
