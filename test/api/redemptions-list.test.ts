import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertListMatches,
  assertRecordMatches,
  NEWEST_FIRST,
  seedRedemptions,
  T,
  type Seeded,
} from '../modules/redemptions/list-seed.js';
import { invalidQueryError } from '../support/error-bodies.js';
import { orderObject, simpleCustomer } from '../support/redemption-rows.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

interface Record {
  id: string;
}
interface List {
  object: string;
  data_ref: string;
  redemptions: Record[];
  total: number;
}

/**
 * GET /v1/redemptions and GET /v1/redemptions/{id} (the reference's "List Redemptions"; voucherify-facts 1.16, 2.6)
 * over the records of list-seed.ts: every order, filter and page, `total`, and the refusals.
 */
describe('redemptions: list and get', () => {
  let server: TestServer;
  let seeded: Seeded;

  before(async () => {
    server = await startTestServer();
    seeded = await seedRedemptions(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const list = async (query: string): Promise<List> => {
    const res = await server.request<List>('GET', `/v1/redemptions${query}`);
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    assertListMatches(res.body);
    return res.body;
  };
  /** The ids a query answers, and its total. */
  const ids = async (query: string) => {
    const body = await list(query);
    return [body.redemptions.map((r) => r.id), body.total];
  };
  const q = (params: { [key: string]: string }) => `?${new URLSearchParams(params).toString()}`;

  it('answers every record newest first, each as GET by id answers it, with the total', async () => {
    const whole = await Promise.all(
      NEWEST_FIRST.map(async (id) => (await server.request('GET', `/v1/redemptions/${id}`)).body),
    );
    assert.deepEqual(await list(''), { object: 'list', data_ref: 'redemptions', redemptions: whole, total: 8 });
  });

  it('answers whole records: a rollback record, then the gift card redemption it rolled back', async () => {
    const { ann } = seeded;
    const common = {
      customer_id: ann.id,
      tracking_id: 'ann',
      metadata: {},
      channel: { channel_id: 'app_test', channel_type: 'API' },
      customer: simpleCustomer(ann),
    };
    assert.deepEqual(await list(`?customer=ann&limit=2`), {
      object: 'list',
      data_ref: 'redemptions',
      redemptions: [
        {
          id: 'rr_1',
          object: 'redemption_rollback',
          date: T[3],
          ...common,
          amount: -300,
          redemption: 'r_c1b',
          reason: 'returned',
          result: 'SUCCESS',
          status: 'SUCCEEDED',
          order: orderObject('ord_1', T[3], ann, 0),
          related_object_type: 'voucher',
          related_object_id: 'v_g1',
          gift: { amount: -300 },
        },
        {
          id: 'r_c1b',
          object: 'redemption',
          date: T[0],
          ...common,
          amount: 300,
          redemption: 'r_p1',
          result: 'SUCCESS',
          status: 'ROLLED_BACK',
          related_redemptions: {
            rollbacks: [{ id: 'rr_1', date: T[3], rollback_order_mode: 'WITH_ORDER' }],
            redemptions: [],
          },
          order: orderObject('ord_1', T[0], ann, 100),
          related_object_type: 'voucher',
          related_object_id: 'v_g1',
          voucher: { id: 'v_g1', code: 'GIFT-1', campaign: null, campaign_id: null, object: 'voucher' },
          gift: { amount: 300 },
        },
      ],
      total: 4,
    });
  });

  it('answers a parent, a child, a failed redemption and a rollback record by id, and 404 for an unknown one', async () => {
    for (const id of ['r_p1', 'r_c2', 'rf_f2', 'rr_1']) {
      const res = await server.request('GET', `/v1/redemptions/${id}`);
      assert.equal(res.status, 200);
      assertRecordMatches(res.body);
    }
    const { bob } = seeded;
    assert.deepEqual((await server.request('GET', '/v1/redemptions/rf_f1')).body, {
      id: 'rf_f1',
      object: 'redemption',
      date: T[1],
      customer_id: bob.id,
      tracking_id: 'bob',
      metadata: {},
      redemption: null,
      result: 'FAILURE',
      status: 'FAILED',
      related_redemptions: { rollbacks: [], redemptions: [] },
      failure_code: 'voucher_expired',
      failure_message: 'voucher expired',
      order: null,
      channel: { channel_id: 'app_test', channel_type: 'API' },
      customer: simpleCustomer(bob),
      related_object_type: 'voucher',
      related_object_id: 'v_s2',
      voucher: { id: 'v_s2', code: 'SPRING-2', campaign: 'Spring', campaign_id: 'camp_spring', object: 'voucher' },
    });
    const missing = await server.request('GET', '/v1/redemptions/r_nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'redemption', 'r_nope'));
  });

  it('orders by each of the ten values, ties in insertion order, descending as the exact reverse', async () => {
    const [first, second] = [seeded.ann, seeded.bob].sort((a, b) => (a.id < b.id ? -1 : 1));
    const rowsOf = { [seeded.ann.id]: ['r_p1', 'r_c1a', 'r_c1b', 'rr_1'], [seeded.bob.id]: ['rf_f1', 'r_p2', 'r_c2'] };
    const ascending: { [field: string]: string[] } = {
      created_at: [...NEWEST_FIRST].reverse(),
      id: ['r_c1a', 'r_c1b', 'r_c2', 'r_p1', 'r_p2', 'rf_f1', 'rf_f2', 'rr_1'],
      // Nulls first (parents and the promotion tier), then by code, then by date.
      voucher_code: ['r_p1', 'r_p2', 'r_c2', 'r_c1b', 'rr_1', 'rf_f2', 'r_c1a', 'rf_f1'],
      tracking_id: ['r_p1', 'r_c1a', 'r_c1b', 'rr_1', 'rf_f2', 'rf_f1', 'r_p2', 'r_c2'],
      customer_id: ['rf_f2', ...(rowsOf[first!.id] as string[]), ...(rowsOf[second!.id] as string[])],
    };
    for (const [field, expected] of Object.entries(ascending)) {
      assert.deepEqual(await ids(`?order=${field}`), [expected, 8], field);
      assert.deepEqual(await ids(`?order=-${field}`), [[...expected].reverse(), 8], `-${field}`);
    }
  });

  it('pages with limit and page; total counts every match; a page past the end is empty', async () => {
    assert.deepEqual(await ids('?limit=3'), [NEWEST_FIRST.slice(0, 3), 8]);
    assert.deepEqual(await ids('?limit=3&page=2'), [NEWEST_FIRST.slice(3, 6), 8]);
    assert.deepEqual(await ids('?limit=3&page=3'), [NEWEST_FIRST.slice(6), 8]);
    assert.deepEqual(await ids('?limit=3&page=4'), [[], 8]);
    assert.deepEqual(await ids('?limit=1&page=2&campaign=Spring&order=created_at'), [['rf_f1'], 2]);
    assert.deepEqual(await ids('?limit=100&page=99'), [[], 8]);
  });

  it('filters by result (once, repeated, or as the official client sends arrays), campaign name, customer and created_at', async () => {
    const { ann, bob } = seeded;
    assert.deepEqual(await ids('?result=SUCCESS'), [NEWEST_FIRST.filter((id) => !id.startsWith('rf_')), 6]);
    assert.deepEqual(await ids('?result=FAILURE'), [['rf_f2', 'rf_f1'], 2]);
    assert.deepEqual(await ids('?result=SUCCESS&result=FAILURE'), [NEWEST_FIRST, 8]);
    assert.deepEqual(await ids(q({ 'result[0]': 'FAILURE' })), [['rf_f2', 'rf_f1'], 2]);
    assert.deepEqual(await ids('?campaign=Spring'), [['rf_f1', 'r_c1a'], 2]);
    assert.deepEqual(await ids('?campaign=Promo'), [['r_c2'], 1]);
    assert.deepEqual(await ids('?customer=ann'), [['rr_1', 'r_c1b', 'r_c1a', 'r_p1'], 4]);
    assert.deepEqual(await ids(`?customer=${bob.id}`), [['r_c2', 'r_p2', 'rf_f1'], 3]);
    assert.deepEqual(await ids(`?customer=${ann.id}&result=SUCCESS&campaign=Spring`), [['r_c1a'], 1]);
    assert.deepEqual(await ids(q({ 'created_at[after]': T[2] })), [['rf_f2', 'rr_1'], 2]);
    assert.deepEqual(await ids(q({ 'created_at[before]': T[1] })), [['r_c1b', 'r_c1a', 'r_p1'], 3]);
    assert.deepEqual(await ids(q({ 'created_at[after]': T[0], 'created_at[before]': T[3] })), [
      ['r_c2', 'r_p2', 'rf_f1'],
      3,
    ]);
    // A date alone is midnight UTC.
    assert.deepEqual(await ids(q({ 'created_at[after]': '2026-01-01' })), [NEWEST_FIRST, 8]);
    assert.deepEqual(await ids(q({ 'created_at[before]': '2026-01-01' })), [[], 0]);
  });

  it('answers an empty list for a customer that does not exist', async () => {
    assert.deepEqual(await list('?customer=nobody'), {
      object: 'list',
      data_ref: 'redemptions',
      redemptions: [],
      total: 0,
    });
    assert.deepEqual(await list('?customer=cust_unknown&result=SUCCESS'), {
      object: 'list',
      data_ref: 'redemptions',
      redemptions: [],
      total: 0,
    });
  });

  it('filters by each field of the filters deep object', async () => {
    const { ann, bob } = seeded;
    const f = (field: string, op: string, value = '') => `filters[${field}][conditions][${op}]=${value}`;
    const cases: Array<[string, string[]]> = [
      [f('voucher_code', '$is', 'GIFT-1'), ['rr_1', 'r_c1b']],
      [f('voucher_code', '$is_unknown'), ['r_c2', 'r_p2', 'r_p1']],
      [f('related_object_id', '$is', 'promo_1'), ['r_c2']],
      [f('related_object_parent_id', '$in][0', 'camp_spring'), ['rf_f1', 'r_c1a']],
      [f('related_object_parent_id', '$is_unknown'), ['rf_f2', 'rr_1', 'r_p2', 'r_c1b', 'r_p1']],
      [f('parent_redemption_id', '$is', 'r_p1'), ['r_c1b', 'r_c1a']],
      [f('parent_redemption_id', '$is_unknown'), ['rf_f2', 'r_p2', 'rf_f1', 'r_p1']],
      [f('failure_code', '$is', 'voucher_expired'), ['rf_f1']],
      [f('result', '$is', 'FAILURE'), ['rf_f2', 'rf_f1']],
      [`${f('result', '$in][0', 'SUCCESS')}&${f('result', '$in][1', 'FAILURE')}`, NEWEST_FIRST],
      [f('object', '$is', 'redemption_rollback'), ['rr_1']],
      [`${f('object', '$in][', 'redemption')}&${f('object', '$in][', 'redemption_rollback')}`, NEWEST_FIRST],
      [f('object', '$in', 'other'), []],
      [f('customer_id', '$is', bob.id), ['r_c2', 'r_p2', 'rf_f1']],
      [f('customer_id', '$is_unknown'), ['rf_f2']],
      [f('campaign_name', '$is', 'Promo'), ['r_c2']],
      [f('campaign_name', '$is_unknown'), ['rf_f2', 'rr_1', 'r_p2', 'r_c1b', 'r_p1']],
      // promo has no dashboard users: every record was made through the API.
      [f('user_login', '$is', 'admin@example.com'), []],
      [f('user_login', '$is_unknown'), NEWEST_FIRST],
      // Several conditions: all of them.
      [
        `filters[junction]=and&${f('customer_id', '$is', ann.id)}&${f('parent_redemption_id', '$is', 'r_p1')}&${f('voucher_code', '$is', 'SPRING-1')}`,
        ['r_c1a'],
      ],
      [
        `filters[junction]=AND&${f('result', '$is', 'SUCCESS')}&${f('object', '$is', 'redemption')}`,
        ['r_c2', 'r_p2', 'r_c1b', 'r_c1a', 'r_p1'],
      ],
      [`filters[junction]=or&${f('failure_code', '$is', 'voucher_expired')}`, ['rf_f1']],
      [`${f('failure_code', '$is', 'voucher_expired')}&result=FAILURE&campaign=Spring&customer=bob`, ['rf_f1']],
      [
        `${f('voucher_code', '$is_unknown')}&${f('parent_redemption_id', '$is_unknown')}&result=SUCCESS`,
        ['r_p2', 'r_p1'],
      ],
    ];
    for (const [query, expected] of cases) assert.deepEqual(await ids(`?${query}`), [expected, expected.length], query);
  });

  it('orders by a field together with an equality on that field', async () => {
    assert.deepEqual(await ids('?order=voucher_code&filters[voucher_code][conditions][$is]=GIFT-1'), [
      ['r_c1b', 'rr_1'],
      2,
    ]);
    assert.deepEqual(await ids('?order=-voucher_code&filters[voucher_code][conditions][$is_unknown]='), [
      ['r_c2', 'r_p2', 'r_p1'],
      3,
    ]);
    assert.deepEqual(await ids('?order=-customer_id&customer=ann'), [['rr_1', 'r_c1b', 'r_c1a', 'r_p1'], 4]);
    assert.deepEqual(await ids(`?order=customer_id&filters[customer_id][conditions][$is]=${seeded.bob.id}`), [
      ['rf_f1', 'r_p2', 'r_c2'],
      3,
    ]);
    assert.deepEqual(await ids(q({ order: 'id', 'created_at[after]': T[2] })), [['rf_f2', 'rr_1'], 2]);
  });

  it('refuses bad queries with 400 invalid_query_params, never a silent clamp or an ignored filter', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'Query parameter limit must be between 1 and 100'],
      [
        'limit=101&page=100',
        'Query parameter limit must be between 1 and 100; Query parameter page must be between 1 and 99',
      ],
      ['page=0', 'Query parameter page must be between 1 and 99'],
      ['limit=ten', 'Query parameter limit must be an integer'],
      ['result=MAYBE', 'Query parameter result must be one of: SUCCESS, FAILURE'],
      ['result=SUCCESS&result=rolled', 'Query parameter result must be one of: SUCCESS, FAILURE'],
      ['campaign=a&campaign=b', 'Query parameter campaign must be given once'],
      ['created_at[after]=yesterday', 'Query parameter created_at[after] must be an ISO 8601 date-time'],
      ['created_at[since]=2026-01-01', 'Unknown query parameter(s): created_at[since]'],
      ['filters=voucher_code', 'Unknown query parameter(s): filters'],
      [
        'filters[voucher_code][conditions][$after]=2026-01-01',
        'filters.voucher_code.conditions.$after does not apply to voucher_code (a string field)',
      ],
      [
        'filters[voucher_code][conditions][$starts_with]=',
        'filters.voucher_code.conditions.$starts_with must be an array of one or more non-empty strings',
      ],
      [
        'filters[amount][conditions][$is]=1',
        'filters.amount is not a known field; allowed: voucher_code, related_object_id, related_object_parent_id, parent_redemption_id, failure_code, result, object, customer_id, campaign_name, user_login',
      ],
      [
        'order=id&campaign=Spring',
        'Query parameter order=id cannot be combined with campaign: no index serves them together; filter with the default order (created_at) instead',
      ],
      [
        'order=-voucher_code&result=SUCCESS&filters[voucher_code][conditions][$is]=A',
        'Query parameter order=-voucher_code cannot be combined with result: no index serves them together; filter with the default order (created_at) instead',
      ],
      [
        'order=tracking_id&customer=ann',
        'Query parameter order=tracking_id cannot be combined with customer: no index serves them together; filter with the default order (created_at) instead',
      ],
    ];
    for (const [query, details] of cases) {
      const res = await server.request('GET', `/v1/redemptions?${query}`);
      assert.equal(res.status, 400, query);
      assert.deepEqual(res.body, errorBody(res, invalidQueryError(details)), query);
    }
  });
});
