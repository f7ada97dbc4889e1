import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { assertCustomerReference } from '../modules/customers/reference.js';

interface Listed {
  id: string;
  source_id?: string;
  created_at: string;
  updated_at: string;
}

const ids = (body: { customers: Listed[] }) => body.customers.map((c) => c.source_id);

/**
 * Seven customers: c1..c7 created a minute apart (c3 and c4 in the same millisecond), some
 * updated later, so that every order, filter and cursor has something to tell apart.
 */
describe('GET /v1/customers', () => {
  let server: TestServer;
  const clock = fixedClock('2024-01-01T00:00:00.000Z');
  const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();

  before(async () => {
    server = await startTestServer({ clock });
    const seed: Array<[number, Record<string, unknown>]> = [
      [1, { source_id: 'c1', name: 'Ann', email: 'ann@x.io', address: { city: 'Berlin' } }],
      [2, { source_id: 'c2', name: 'Bob', email: 'bob@x.io', address: { city: 'Paris' } }],
      [3, { source_id: 'c3', name: 'ann', email: 'ANN@x.io', address: { city: 'berlin' } }],
      [3, { source_id: 'c4', name: 'Cid' }],
      [5, { source_id: 'c5', email: 'eve@x.io', address: { city: 'Berlin', line_1: 'x' } }],
      [6, { source_id: 'c6' }],
      [7, { source_id: 'c7', name: 'Ann' }],
    ];
    for (const [minute, body] of seed) {
      clock.set(at(minute));
      assert.equal((await server.request('POST', '/v1/customers', { body })).status, 200);
    }
    clock.set(at(30));
    await server.request('PUT', '/v1/customers/c2', { body: { phone: '1' } });
    clock.set(at(20));
    await server.request('PUT', '/v1/customers/c6', { body: { phone: '2' } });
  });
  after(() => server.close());

  const get = (query: string) => server.request('GET', `/v1/customers${query}`);

  it('lists most recent first by default, ten at a time, with total and has_more', async () => {
    const res = await get('');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['object', 'data_ref', 'customers', 'total', 'has_more']);
    assert.equal(res.body.object, 'list');
    assert.equal(res.body.data_ref, 'customers');
    assert.deepEqual(ids(res.body), ['c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
    assert.equal(res.body.total, 7);
    assert.equal(res.body.has_more, false);
    assert.deepEqual(res.body.customers[0], (await server.request('GET', '/v1/customers/c7')).body);
    assertCustomerReference('GET', '/v1/customers', 200, res.body);
  });

  it('pages with limit and page; has_more tells whether a next page holds anything', async () => {
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(await get(`?limit=2&page=${page}`));
    assert.deepEqual(
      pages.map((p) => ids(p.body)),
      [['c7', 'c6'], ['c5', 'c4'], ['c3', 'c2'], ['c1']],
    );
    assert.deepEqual(
      pages.map((p) => p.body.has_more),
      [true, true, true, false],
    );
    assert.deepEqual(
      pages.map((p) => p.body.total),
      [7, 7, 7, 7],
    );
    const beyond = await get('?limit=2&page=99');
    assert.deepEqual(beyond.body, { object: 'list', data_ref: 'customers', customers: [], total: 7, has_more: false });
  });

  it('filters by email, name and city without ASCII case, and counts the matches', async () => {
    const byEmail = await get('?email=ann@X.io');
    assert.deepEqual(ids(byEmail.body), ['c3', 'c1']);
    assert.equal(byEmail.body.total, 2);
    assert.deepEqual(ids((await get('?name=ANN')).body), ['c7', 'c3', 'c1']);
    const byCity = await get('?city=Berlin&limit=1');
    assert.deepEqual(ids(byCity.body), ['c5']);
    assert.equal(byCity.body.total, 3);
    assert.equal(byCity.body.has_more, true);
    assert.deepEqual(ids((await get('?city=Berlin&name=ann')).body), ['c3', 'c1']);
    assert.deepEqual((await get('?email=nobody@x.io')).body, {
      object: 'list',
      data_ref: 'customers',
      customers: [],
      total: 0,
      has_more: false,
    });
  });

  it('filters by created_at and updated_at ranges (strict bounds; a plain date is midnight UTC)', async () => {
    const created = await get(`?created_at[after]=${at(2)}&created_at[before]=${at(6)}`);
    assert.deepEqual(ids(created.body), ['c5', 'c4', 'c3']);
    assert.equal(created.body.total, 3);
    assert.deepEqual(ids((await get(`?updated_at[after]=${at(10)}`)).body), ['c6', 'c2']);
    assert.deepEqual(ids((await get(`?updated_at[before]=${at(2)}`)).body), ['c1']);
    assert.deepEqual(ids((await get('?created_at[before]=2024-01-01')).body), []);
  });

  it('orders by each of the six values; equal keys keep creation order', async () => {
    const cases: Array<[string, string[]]> = [
      ['created_at', ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']],
      ['-created_at', ['c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1']],
      ['updated_at', ['c1', 'c3', 'c4', 'c5', 'c7', 'c6', 'c2']],
      ['-updated_at', ['c2', 'c6', 'c7', 'c5', 'c4', 'c3', 'c1']],
      ['source_id', ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']],
      ['-source_id', ['c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1']],
    ];
    for (const [order, expected] of cases) assert.deepEqual(ids((await get(`?order=${order}`)).body), expected, order);
  });

  it('starting_after alone lists customers created before the date, newest first', async () => {
    const res = await get(`?starting_after=${at(5)}`);
    assert.deepEqual(ids(res.body), ['c4', 'c3', 'c2', 'c1']);
    assert.equal(res.body.total, 7, 'the cursor is not a filter of total');
    assert.deepEqual(ids((await get(`?starting_after=${at(5)}&order=-created_at`)).body), ['c4', 'c3', 'c2', 'c1']);
  });

  it('starting_after with order=created_at or updated_at lists what comes after the date, ascending', async () => {
    assert.deepEqual(ids((await get(`?starting_after=${at(3)}&order=created_at`)).body), ['c5', 'c6', 'c7']);
    assert.deepEqual(ids((await get(`?starting_after=${at(6)}&order=updated_at`)).body), ['c7', 'c6', 'c2']);
    assert.deepEqual(ids((await get(`?starting_after=${at(20)}&order=-updated_at`)).body), [
      'c7',
      'c5',
      'c4',
      'c3',
      'c1',
    ]);
  });

  it('starting_after with a source_id order keeps customers created before the date', async () => {
    assert.deepEqual(ids((await get(`?starting_after=${at(5)}&order=-source_id`)).body), ['c4', 'c3', 'c2', 'c1']);
  });

  it('walks the whole list with the cursor the official client uses (has_more, starting_after)', async () => {
    const seen: string[] = [];
    let cursor = '2200-01-01T00:00:00Z';
    for (let guard = 0; guard < 10; guard++) {
      const res = await get(`?limit=3&starting_after=${cursor}`);
      for (const c of res.body.customers as Listed[]) {
        seen.push(c.source_id ?? '');
        cursor = cursor < c.created_at ? cursor : c.created_at;
      }
      if (!res.body.has_more) break;
    }
    // A date cursor is strict: had a page ended between c4 and c3 (same millisecond), the next
    // one would start after c3 too. docs/deviations.md states this limit of the reference's cursor.
    assert.deepEqual(seen, ['c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
  });

  it('answers an empty list for an unknown segment_id (test/api/segments.test.ts lists members)', async () => {
    const res = await get('?segment_id=seg_123&email=ann@x.io');
    assert.deepEqual(res.body, { object: 'list', data_ref: 'customers', customers: [], total: 0, has_more: false });
  });

  it('refuses bad parameters with every problem listed', async () => {
    const res = await get(
      '?limit=0&page=100&order=name&created_at[after]=yesterday&starting_after=2024-13-01&updated_at[before]=x',
    );
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details: [
          'Query parameter limit must be between 1 and 100',
          'Query parameter page must be between 1 and 99',
          'Query parameter created_at[after] must be an ISO 8601 date-time',
          'Query parameter updated_at[before] must be an ISO 8601 date-time',
          'Query parameter starting_after must be an ISO 8601 date-time',
        ].join('; '),
      }),
    );
    const twice = await get('?email=a@b.c&email=d@e.f&limit=101');
    assert.deepEqual(
      twice.body,
      errorBody(twice, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details: 'Query parameter limit must be between 1 and 100; Query parameter email must be given once',
      }),
    );
  });

  it('keeps total exact through deletes (the counter is maintained by triggers)', async () => {
    clock.set(at(40));
    const extra = await server.request('POST', '/v1/customers', { body: { source_id: 'c8' } });
    assert.equal((await get('')).body.total, 8);
    await server.request('DELETE', `/v1/customers/${extra.body.id}`);
    assert.equal((await get('')).body.total, 7);
  });
});
