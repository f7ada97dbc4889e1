import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIsoDate } from '../../src/lib/dates.js';
import { AppError } from '../../src/lib/errors.js';
import { listEnvelope, type Query } from '../../src/lib/pagination.js';
import { date, limit, order, page, querySchema, text } from '../../src/lib/query-params.js';
import { parse } from '../../src/lib/validate.js';

// Each helper parses one parameter through a schema of its own, as an endpoint would.
const parseLimit = (query: Query) => parse(querySchema({ limit: limit() }), query, 'query').limit;
const parsePage = (query: Query, max: 99 | 100) => parse(querySchema({ page: page(max) }), query, 'query').page;
const parseOrder = <F extends string>(query: Query, fields: readonly F[]) =>
  parse(querySchema({ order: order(fields) }), query, 'query').order;
const parseDateQuery = (query: Query, name: string) => parse(querySchema({ [name]: date() }), query, 'query')[name];

const rejects = (fn: () => unknown, details: string) =>
  assert.throws(fn, (e: unknown) => e instanceof AppError && e.key === 'invalid_query_params' && e.details === details);

describe('limit, page and order', () => {
  it('default limit 10 and page 1', () => {
    assert.equal(parseLimit({}), 10);
    assert.equal(parsePage({}, 100), 1);
  });

  const limitCases: Array<[string, number | string]> = [
    ['1', 1],
    ['100', 100],
    ['0', 'Query parameter limit must be between 1 and 100'],
    ['101', 'Query parameter limit must be between 1 and 100'],
    ['-5', 'Query parameter limit must be between 1 and 100'],
    ['ten', 'Query parameter limit must be an integer'],
    ['1.5', 'Query parameter limit must be an integer'],
    ['', 'Query parameter limit must be an integer'],
  ];
  for (const [raw, expected] of limitCases) {
    it(`limit=${raw} -> ${expected}`, () => {
      if (typeof expected === 'number') assert.equal(parseLimit({ limit: raw }), expected);
      else rejects(() => parseLimit({ limit: raw }), expected);
    });
  }

  it('page bounds differ by list: 1..100 or 1..99, never clamped', () => {
    assert.equal(parsePage({ page: '100' }, 100), 100);
    rejects(() => parsePage({ page: '100' }, 99), 'Query parameter page must be between 1 and 99');
    rejects(() => parsePage({ page: '0' }, 100), 'Query parameter page must be between 1 and 100');
  });

  it('refuses a repeated parameter', () => {
    rejects(() => parseLimit({ limit: ['1', '2'] }), 'Query parameter limit must be given once');
  });

  it('order: a listed field, optionally descending', () => {
    const fields = ['created_at', 'updated_at'] as const;
    assert.equal(parseOrder({}, fields), undefined);
    assert.deepEqual(parseOrder({ order: 'created_at' }, fields), { field: 'created_at', direction: 'asc' });
    assert.deepEqual(parseOrder({ order: '-updated_at' }, fields), { field: 'updated_at', direction: 'desc' });
    // A field the list does not know is ignored, as the real API ignores it: the default order.
    assert.equal(parseOrder({ order: 'name' }, fields), undefined);
    assert.equal(parseOrder({ order: '--created_at' }, fields), undefined);
    rejects(() => parseOrder({ order: ['created_at', 'name'] }, fields), 'Query parameter order must be given once');
  });

  it('builds the list envelope', () => {
    assert.deepEqual(listEnvelope('data', [1, 2], { total: 2 }), {
      object: 'list',
      data_ref: 'data',
      data: [1, 2],
      total: 2,
    });
  });
});

describe('ISO 8601 dates', () => {
  const cases: Array<[string, string | null]> = [
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['2024-03-05T07', '2024-03-05T07:00:00.000Z'],
    ['2024-03-05T07:08', '2024-03-05T07:08:00.000Z'],
    ['2024-03-05T07:08:09', '2024-03-05T07:08:09.000Z'],
    ['2024-03-05T07:08:09Z', '2024-03-05T07:08:09.000Z'],
    ['2024-03-05T07:08:09.123Z', '2024-03-05T07:08:09.123Z'],
    ['2024-03-05T07:08:09.123456+00:00', '2024-03-05T07:08:09.123Z'],
    ['2024-03-05T07:08:09+02:00', '2024-03-05T05:08:09.000Z'],
    ['2024-02-31', null],
    ['2024-02-31T10:00:00.000Z', null],
    ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
    ['2024-13-01', null],
    ['05/03/2024', null],
    ['2024-03-05Z', null],
    ['yesterday', null],
  ];
  for (const [input, expected] of cases) {
    it(`${input} -> ${expected}`, () => assert.equal(parseIsoDate(input), expected));
  }

  it('a malformed date query parameter is 400 invalid_query_params', () => {
    rejects(
      () => parseDateQuery({ end_date: 'soon' }, 'end_date'),
      'Query parameter end_date must be an ISO 8601 date-time',
    );
    assert.equal(parseDateQuery({}, 'end_date'), undefined);
  });
});

describe('an endpoint query schema', () => {
  const schema = querySchema({
    limit: limit(),
    page: page(99),
    email: text(),
    'created_at[before]': date(),
    order: order(['created_at'] as const),
  });

  it('gives defaults and typed values, and ignores parameters it does not know', () => {
    assert.deepEqual(parse(schema, { email: 'a@b.c', 'created_at[before]': '2024-03-05', other: 'x' }, 'query'), {
      limit: 10,
      page: 1,
      email: 'a@b.c',
      'created_at[before]': '2024-03-05T00:00:00.000Z',
    });
  });

  it('reports every problem at once, in the order of the schema', () => {
    rejects(
      () =>
        parse(
          schema,
          {
            limit: '0',
            page: '100',
            email: ['a', 'b'],
            'created_at[before]': 'soon',
            order: 'name',
          },
          'query',
        ),
      'Query parameter limit must be between 1 and 100; Query parameter page must be between 1 and 99; Query parameter email must be given once; ' +
        'Query parameter created_at[before] must be an ISO 8601 date-time',
    );
  });
});
