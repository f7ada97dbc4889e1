import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { errorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const T = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

/**
 * GET /v1/loyalties/{id}/members: a program of five cards made a minute apart (CARD-A oldest),
 * three of them held (by ann, bob, ann), and a card of another program.
 */
describe('GET /v1/loyalties/{id}/members', () => {
  let server: TestServer;
  const clock = fixedClock(T(0));
  const ids: Record<string, string> = {};
  before(async () => {
    server = await startTestServer({ clock });
    await server.request('POST', '/v1/loyalties', {
      body: { name: 'Stars', voucher: { loyalty_card: { points: 0 } } },
    });
    await server.request('POST', '/v1/loyalties', {
      body: { name: 'Other', vouchers_count: 1, voucher: { loyalty_card: { points: 0 } } },
    });
    for (const [i, code] of ['CARD-A', 'CARD-B', 'CARD-C', 'CARD-D', 'CARD-E'].entries()) {
      clock.set(T(i + 1));
      ids[code] = (await server.request('POST', '/v1/campaigns/Stars/vouchers', { body: { code } })).body.id;
    }
    // Claimed in this order, so updated_at orders them C, A, E (then the never-held B and D).
    for (const [minute, code, customer] of [
      [10, 'CARD-C', 'ann'],
      [11, 'CARD-A', 'bob'],
      [12, 'CARD-E', 'ann'],
    ] as const) {
      clock.set(T(minute));
      const res = await server.request('POST', '/v1/loyalties/Stars/members', {
        body: { voucher: code, customer: { source_id: customer } },
      });
      assert.equal(res.status, 200);
    }
  });
  after(() => server.close());

  const codes = async (query: string) => {
    const res = await server.request('GET', `/v1/loyalties/Stars/members${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesReference('GET', '/v1/loyalties/{campaignId}/members', 200, withoutNulls(res.body));
    return {
      codes: (res.body.vouchers as Array<{ code: string }>).map((v) => v.code),
      total: res.body.total as number,
    };
  };

  it('lists every card of the program, newest first, with total, as the reference lists them', async () => {
    const res = await server.request('GET', '/v1/loyalties/Stars/members?limit=2');
    const card = (await server.request('GET', '/v1/loyalties/members/CARD-E')).body;
    const next = (await server.request('GET', '/v1/loyalties/members/CARD-D')).body;
    assert.deepEqual(res.body, { object: 'list', data_ref: 'vouchers', vouchers: [card, next], total: 5 });
    assert.deepEqual(await codes('?limit=2&page=3'), { codes: ['CARD-A'], total: 5 });
  });

  it('orders by created_at, updated_at and code, both ways', async () => {
    assert.deepEqual((await codes('?order=created_at')).codes, ['CARD-A', 'CARD-B', 'CARD-C', 'CARD-D', 'CARD-E']);
    assert.deepEqual((await codes('?order=-code')).codes, ['CARD-E', 'CARD-D', 'CARD-C', 'CARD-B', 'CARD-A']);
    // Cards made by POST .../vouchers have no updated_at until they change: they sort first.
    assert.deepEqual((await codes('?order=updated_at')).codes, ['CARD-B', 'CARD-D', 'CARD-C', 'CARD-A', 'CARD-E']);
    assert.deepEqual((await codes('?order=-updated_at')).codes, ['CARD-E', 'CARD-A', 'CARD-C', 'CARD-D', 'CARD-B']);
  });

  it('filters by holder (id or source_id; unknown: empty), by created_at and updated_at bounds (strict), and combines them', async () => {
    const ann = (await server.request('GET', '/v1/customers/ann')).body.id as string;
    assert.deepEqual(await codes('?customer=ann'), { codes: ['CARD-E', 'CARD-C'], total: 2 });
    assert.deepEqual(await codes(`?customer=${ann}&order=code`), { codes: ['CARD-C', 'CARD-E'], total: 2 });
    assert.deepEqual(await codes('?customer=nobody'), { codes: [], total: 0 });
    assert.deepEqual(await codes(`?created_at[after]=${T(2)}&created_at[before]=${T(5)}`), {
      codes: ['CARD-D', 'CARD-C'],
      total: 2,
    });
    assert.deepEqual(await codes(`?updated_at[after]=${T(10)}&order=code`), { codes: ['CARD-A', 'CARD-E'], total: 2 });
    assert.deepEqual(await codes(`?customer=ann&updated_at[before]=${T(12)}`), { codes: ['CARD-C'], total: 1 });
  });

  it('looks cards up by code and by ids (repeated, or ids[N] as the official client sends them), within the program only', async () => {
    assert.deepEqual(await codes('?code=CARD-B'), { codes: ['CARD-B'], total: 1 });
    const other = (await server.request('GET', '/v1/vouchers?campaign=Other')).body.vouchers[0] as {
      id: string;
      code: string;
    };
    assert.deepEqual(await codes(`?code=${other.code}`), { codes: [], total: 0 });
    assert.deepEqual(await codes(`?ids=${ids['CARD-A']}&ids=${ids['CARD-D']}&ids=${other.id}`), {
      codes: ['CARD-D', 'CARD-A'],
      total: 2,
    });
    assert.deepEqual(
      await codes(`?ids[0]=${ids['CARD-A']}&ids[1]=${ids['CARD-E']}&ids[2]=${ids['CARD-C']}&order=code&limit=2`),
      {
        codes: ['CARD-A', 'CARD-C'],
        total: 3,
      },
    );
    assert.deepEqual(await codes(`?ids=${ids['CARD-A']}&ids=${ids['CARD-C']}&customer=ann`), {
      codes: ['CARD-C'],
      total: 1,
    });
  });

  it('refuses bad query parameters with every problem at once', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `ids=v_${i}`).join('&');
    const res: TestResponse = await server.request(
      'GET',
      `/v1/loyalties/Stars/members?limit=101&page=0&order=points&created_at[before]=soon&${many}`,
    );
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details:
          'Query parameter limit must be between 1 and 100; Query parameter page must be between 1 and 100; Query parameter created_at[before] must be an ISO 8601 date-time; Query parameter ids may name at most 100 cards',
      }),
    );
  });
});
