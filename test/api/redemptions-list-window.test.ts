import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FILTER_WINDOW_ROWS } from '../../src/db/filter-window.js';
import { assertListMatches, NEWEST_FIRST, seedRedemptions, type Seeded } from '../modules/redemptions/list-seed.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';
import { onPostgres } from '../support/engine.js';

interface List {
  object: string;
  data_ref: string;
  redemptions: Array<{ id: string }>;
  total: number;
}

const f = (field: string, op: string, value = '') =>
  `filters[${field}][conditions][${op}]=${encodeURIComponent(value)}`;
const window = (examined: number, state = 'complete') => `${state}; examined=${examined}; limit=${FILTER_WINDOW_ROWS}`;

/**
 * GET /v1/redemptions with the filters no index serves (list-redemptions: every operator of
 * FilterConditionsString, and a junction of "or"), checked in the bounded window of
 * src/db/filter-window.ts: the matches, the total, and the header that says what was examined.
 * Codes of the seed, newest first: rf_f2 NOPE, rr_1 GIFT-1, r_c2 -, r_p2 -, rf_f1 SPRING-2,
 * r_c1b GIFT-1, r_c1a SPRING-1, r_p1 -.
 */
describe('redemptions: filters checked in the bounded window', () => {
  let server: TestServer;
  let seeded: Seeded;
  let client: ServerSideClient;

  before(async () => {
    server = await startTestServer();
    seeded = await seedRedemptions(server);
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const get = async (query: string) => {
    const res = await server.request<List>('GET', `/v1/redemptions?${query}`);
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    assertListMatches(res.body);
    return res;
  };

  it('answers whole records and the total of $is_not, with the window in the header', async () => {
    const res = await get(f('voucher_code', '$is_not', 'GIFT-1'));
    const expected = ['rf_f2', 'r_c2', 'r_p2', 'rf_f1', 'r_c1a', 'r_p1'];
    const whole = await Promise.all(
      expected.map(async (id) => (await server.request('GET', `/v1/redemptions/${id}`)).body),
    );
    assert.deepEqual(res.body, { object: 'list', data_ref: 'redemptions', redemptions: whole, total: 6 });
    assert.equal(res.headers.get('x-promo-filter-window'), window(8));
    // An indexed filter alone reads no window, and says nothing.
    assert.equal((await get(f('voucher_code', '$is', 'GIFT-1'))).headers.get('x-promo-filter-window'), null);
  });

  it('checks every operator the reference lists, a junction of "or", and a column restricted twice', async () => {
    const { ann } = seeded;
    const cases: Array<[string, string[], number?]> = [
      [
        `${f('voucher_code', '$not_in][0', 'GIFT-1')}&${f('voucher_code', '$not_in][1', 'NOPE')}`,
        ['r_c2', 'r_p2', 'rf_f1', 'r_c1a', 'r_p1'],
      ],
      [`${f('voucher_code', '$in][0', 'GIFT-1')}&${f('voucher_code', '$in][1', 'NOPE')}`, ['rf_f2', 'rr_1', 'r_c1b']],
      [f('voucher_code', '$has_value'), ['rf_f2', 'rr_1', 'rf_f1', 'r_c1b', 'r_c1a']],
      [f('voucher_code', '$starts_with', 'SPRING'), ['rf_f1', 'r_c1a']],
      [f('voucher_code', '$ends_with', '-1'), ['rr_1', 'r_c1b', 'r_c1a']],
      [f('voucher_code', '$contains', 'RING'), ['rf_f1', 'r_c1a']],
      [f('voucher_code', '$not_contain', 'SPRING'), ['rf_f2', 'rr_1', 'r_c2', 'r_p2', 'r_c1b', 'r_p1']],
      [f('failure_code', '$is_unknown'), ['rr_1', 'r_c2', 'r_p2', 'r_c1b', 'r_c1a', 'r_p1']],
      [f('result', '$is_not', 'SUCCESS'), ['rf_f2', 'rf_f1']],
      [f('object', '$not_in', 'redemption'), ['rr_1']],
      [f('user_login', '$is_not', 'admin@example.com'), NEWEST_FIRST],
      [f('user_login', '$has_value'), []],
      [
        `filters[junction]=OR&${f('failure_code', '$is', 'voucher_expired')}&${f('object', '$is', 'redemption_rollback')}`,
        ['rr_1', 'rf_f1'],
      ],
      [
        `filters[junction]=or&${f('customer_id', '$is_unknown')}&${f('related_object_id', '$starts_with', 'promo_')}`,
        ['rf_f2', 'r_c2'],
      ],
      // With the indexed parameters: the window holds ann's four records only.
      [`customer=ann&${f('voucher_code', '$is_not', 'GIFT-1')}`, ['r_c1a', 'r_p1'], 4],
      [
        `customer=${ann.id}&filters[junction]=or&${f('voucher_code', '$is', 'SPRING-1')}&${f('object', '$is', 'redemption_rollback')}`,
        ['rr_1', 'r_c1a'],
        4,
      ],
      // Named twice: the parameter's equality reads the index, the filter is checked in the window.
      [`campaign=Spring&${f('campaign_name', '$is', 'Spring')}`, ['rf_f1', 'r_c1a'], 2],
      [`campaign=Spring&${f('campaign_name', '$is', 'Promo')}`, [], 2],
    ];
    for (const [query, expected, examined = 8] of cases) {
      const res = await get(query);
      assert.deepEqual([res.body.redemptions.map((r) => r.id), res.body.total], [expected, expected.length], query);
      assert.equal(res.headers.get('x-promo-filter-window'), window(examined), query);
    }
  });

  it('pages and orders the matches as the list does', async () => {
    const paged = await get(`${f('voucher_code', '$has_value')}&limit=2&page=2`);
    assert.deepEqual([paged.body.redemptions.map((r) => r.id), paged.body.total], [['rf_f1', 'r_c1b'], 5]);
    const ordered = await get(`${f('voucher_code', '$is_not', 'GIFT-1')}&order=voucher_code`);
    assert.deepEqual(
      ordered.body.redemptions.map((r) => r.id),
      ['r_p1', 'r_p2', 'r_c2', 'rf_f2', 'r_c1a', 'rf_f1'],
    );
    const reversed = await get(`${f('voucher_code', '$is_not', 'GIFT-1')}&order=-voucher_code`);
    assert.deepEqual(
      reversed.body.redemptions.map((r) => r.id),
      ['rf_f1', 'r_c1a', 'rf_f2', 'r_c2', 'r_p2', 'r_p1'],
    );
  });

  it('takes the filters as @voucherify/sdk sends them', async () => {
    type Params = Parameters<ServerSideClient['redemptions']['list']>[0];
    const filters = {
      junction: 'AND',
      voucher_code: { conditions: { $not_in: ['GIFT-1', 'NOPE'] } },
      customer_id: { conditions: { $is_not: seeded.bob.id } },
    };
    const listed = await client.redemptions.list({ filters, limit: 10 } as Params);
    const query = `filters[junction]=AND&${f('voucher_code', '$not_in][0', 'GIFT-1')}&${f('voucher_code', '$not_in][1', 'NOPE')}&${f('customer_id', '$is_not', seeded.bob.id)}&limit=10`;
    assert.deepEqual(listed, (await get(query)).body);
    assert.deepEqual([listed.redemptions.map((r) => r.id), listed.total], [['r_c1a', 'r_p1'], 2]);
    const either = await client.redemptions.list({
      filters: {
        junction: 'OR',
        voucher_code: { conditions: { $is_not: 'GIFT-1' } },
        result: { conditions: { $is: 'FAILURE' } },
      },
    } as Params);
    assert.deepEqual(
      [either.redemptions.map((r) => r.id), either.total],
      [['rf_f2', 'r_c2', 'r_p2', 'rf_f1', 'r_c1a', 'r_p1'], 6],
    );
  });
});

/** More records than the window holds: the answer covers the newest FILTER_WINDOW_ROWS, and says it was cut. */
describe('redemptions: a filter window cut at its bound', () => {
  let server: TestServer;
  const extra = 25;

  before(async () => {
    server = await startTestServer();
    await seedRedemptions(server);
    // Copies of the oldest record (r_p1, no voucher), all newer than the seed: the window holds them only.
    const secondsAfter = onPostgres()
      ? `to_char(timestamp '2026-02-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-02-01', '+' || i || ' seconds')`;
    sqliteOf(server.deps)
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO redemptions (id, object, parent_id, created_at, customer_id, tracking_id, metadata, amount, result, status, related_object_type, related_object_id, channel_id, channel_type)
         SELECT 'r_x' || i, object, parent_id, ${secondsAfter}, customer_id, tracking_id, metadata, amount, result, status,
           related_object_type, related_object_id, channel_id, channel_type FROM n, redemptions WHERE redemptions.id = 'r_p1'`,
      )
      .run(FILTER_WINDOW_ROWS + extra);
  });
  after(async () => {
    await server.close();
  });

  it('answers the matches of the newest records only, and says the window was partial', async () => {
    const res = await server.request<List>('GET', `/v1/redemptions?${f('voucher_code', '$has_value')}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { object: 'list', data_ref: 'redemptions', redemptions: [], total: 0 });
    assert.equal(res.headers.get('x-promo-filter-window'), window(FILTER_WINDOW_ROWS, 'partial'));
    // The oldest first: the window is the first records in that order, the seed's among them.
    const oldest = await server.request<List>(
      'GET',
      `/v1/redemptions?order=created_at&${f('voucher_code', '$has_value')}`,
    );
    assert.deepEqual(
      [oldest.body.redemptions.map((r) => r.id), oldest.body.total],
      [['r_c1a', 'r_c1b', 'rf_f1', 'rr_1', 'rf_f2'], 5],
    );
    assert.equal(oldest.headers.get('x-promo-filter-window'), window(FILTER_WINDOW_ROWS, 'partial'));
    // The walk is streamed in chunks with turns of the event loop between them: requests that
    // arrive meanwhile, writes included, are served while it runs.
    const [during, created] = await Promise.all([
      server.request<List>('GET', `/v1/redemptions?${f('voucher_code', '$is_not', 'X')}&limit=1`),
      server.request('POST', '/v1/customers', { body: { source_id: 'meanwhile' } }),
    ]);
    assert.deepEqual(
      [during.status, during.body.total, during.headers.get('x-promo-filter-window')],
      [200, FILTER_WINDOW_ROWS, window(FILTER_WINDOW_ROWS, 'partial')],
    );
    assert.equal(created.status, 200, created.text);
    // An indexed filter is not bounded: every match, however old.
    const all = await server.request<List>(
      'GET',
      '/v1/redemptions?filters[voucher_code][conditions][$is_unknown]=&limit=1',
    );
    assert.deepEqual(
      [all.body.total, all.headers.get('x-promo-filter-window')],
      [FILTER_WINDOW_ROWS + extra + 3, null],
    );
  });
});
