import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { emit } from '../../src/modules/events/events.service.js';
import { errorBody, notFoundBody, requestIdOf, startTestServer, type TestServer } from '../support/server.js';
import { customerObject } from '../modules/customers/fixtures.js';
import { assertCustomerReference } from '../modules/customers/reference.js';

const T0 = '2024-05-01T12:00:00.000Z';
const ACTIVITY = '/v1/customers/{customerId}/activity';

interface Item {
  id: string;
  type: string;
  created_at: string;
}

describe('GET /v1/customers/{id}/activity', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const activity = (ref: string, query = '') =>
    server.request('GET', `/v1/customers/${encodeURIComponent(ref)}/activity${query}`);
  const apiSource = () => ({ channel: 'API', api_key: { name: 'test server key', app_id: server.serverKey.app_id } });

  it('records customer.created and customer.updated with the customer, the source and the request id', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { source_id: 'act-1', name: 'Ann' } });
    clock.set('2024-05-01T12:05:00.000Z');
    const updated = await server.request('PUT', '/v1/customers/act-1', { body: { email: 'ann@x.io' } });
    const res = await activity('act-1');
    assert.equal(res.status, 200);
    const id = created.body.id as string;
    assert.deepEqual(res.body, {
      object: 'list',
      data_ref: 'data',
      data: [
        {
          id: res.body.data[0].id,
          type: 'customer.updated',
          data: {
            data: {
              customer: customerObject({
                id,
                source_id: 'act-1',
                name: 'Ann',
                email: 'ann@x.io',
                created_at: T0,
                updated_at: '2024-05-01T12:05:00.000Z',
                assets: {},
              }),
            },
            event_source: apiSource(),
          },
          created_at: '2024-05-01T12:05:00.000Z',
          group_id: requestIdOf(updated),
        },
        {
          id: res.body.data[1].id,
          type: 'customer.created',
          data: {
            data: { customer: customerObject({ id, source_id: 'act-1', name: 'Ann', created_at: T0, assets: {} }) },
            event_source: apiSource(),
          },
          created_at: T0,
          group_id: requestIdOf(created),
        },
      ],
      has_more: false,
    });
    assert.match(String(res.body.data[0]?.id), /^evcus_[0-9A-Za-z]{16}$/);
    assertCustomerReference('GET', ACTIVITY, 200, res.body);
    assert.deepEqual((await activity(id)).body, res.body, 'the path takes the id or the source id');
  });

  it('writes no event for an upsert that changes nothing', async () => {
    clock.set(T0);
    await server.request('POST', '/v1/customers', { body: { source_id: 'act-2', name: 'Same' } });
    await server.request('POST', '/v1/customers', { body: { source_id: 'act-2', name: 'Same' } });
    assert.deepEqual(
      (await activity('act-2')).body.data.map((e: Item) => e.type),
      ['customer.created'],
    );
  });

  it('names the key of an OAuth token as the event source', async () => {
    const token = await server.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials&scope=customers',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    await server.request('POST', '/v1/customers', {
      body: { source_id: 'act-3' },
      auth: { bearer: token.body.access_token },
    });
    assert.deepEqual((await activity('act-3')).body.data[0].data.event_source, apiSource());
  });

  it('pages by starting_after_id without skipping or repeating events that share a timestamp', async () => {
    clock.set(T0);
    const c = await server.request('POST', '/v1/customers', { body: { source_id: 'act-same' } });
    for (let i = 0; i < 14; i++) await server.request('PUT', '/v1/customers/act-same', { body: { name: `n${i}` } });
    const names = (items: Array<Item & { data: { data: { customer: { name?: string } } } }>) =>
      items.map((e) => e.data.data.customer.name ?? '-');
    const walk = async (order: string) => {
      const seen: Array<Item & { data: { data: { customer: { name?: string } } } }> = [];
      let query = `?limit=4&order=${order}`;
      for (let guard = 0; guard < 10; guard++) {
        const page = await activity('act-same', query);
        assert.equal(page.status, 200);
        seen.push(...page.body.data);
        if (!page.body.has_more) {
          assert.equal('more_starting_after' in page.body, false);
          break;
        }
        assert.equal(page.body.more_starting_after, page.body.data.at(-1).id);
        query = `?limit=4&order=${order}&starting_after_id=${page.body.more_starting_after}`;
      }
      return seen;
    };
    const ascending = await walk('created_at');
    const expected = ['-', ...Array.from({ length: 14 }, (_, i) => `n${i}`)];
    assert.deepEqual(names(ascending), expected, 'ascending: insertion order among equal timestamps');
    assert.equal(new Set(ascending.map((e) => e.id)).size, 15);
    const descending = await walk('-created_at');
    assert.deepEqual(names(descending), [...expected].reverse());
    assert.equal(c.status, 200);
  });

  it('filters by type, category, date range, campaign id and campaign type', async () => {
    clock.set('2024-06-01T00:00:00.000Z');
    const c = await server.request('POST', '/v1/customers', { body: { source_id: 'act-f' } });
    const customerId = c.body.id as string;
    clock.set('2024-06-02T00:00:00.000Z');
    await server.request('PUT', '/v1/customers/act-f', { body: { name: 'F' } });
    const actor = { channel: 'INTERNAL' as const, request_id: 'c-test' };
    await server.deps.db.transaction().execute(async (trx) => {
      await emit(trx, {
        type: 'customer.voucher.loyalty_card.points_added',
        customer_id: customerId,
        data: { customer: { id: customerId, object: 'customer' }, created_at: '2024-06-03T00:00:00.000Z' },
        actor,
        created_at: '2024-06-03T00:00:00.000Z',
        campaign: { id: 'camp_loyal', type: 'LOYALTY_PROGRAM' },
      });
      await emit(trx, {
        type: 'customer.redemption.succeeded',
        customer_id: customerId,
        data: { customer: { id: customerId, object: 'customer' } },
        actor,
        created_at: '2024-06-04T00:00:00.000Z',
        campaign: { id: 'camp_promo', type: 'PROMOTION' },
      });
    });
    const types = async (query: string) => (await activity('act-f', query)).body.data.map((e: Item) => e.type);
    assert.deepEqual(await types('?type=customer.updated'), ['customer.updated']);
    assert.deepEqual(await types('?category=EFFECT'), ['customer.voucher.loyalty_card.points_added']);
    assert.deepEqual(await types('?category=ACTION&order=created_at'), [
      'customer.created',
      'customer.updated',
      'customer.redemption.succeeded',
    ]);
    assert.deepEqual(await types('?campaign_id=camp_promo'), ['customer.redemption.succeeded']);
    assert.deepEqual(await types('?campaign_type=LOYALTY_PROGRAM'), ['customer.voucher.loyalty_card.points_added']);
    assert.deepEqual(await types('?campaign_type=GIFT_VOUCHERS'), []);
    assert.deepEqual(await types('?start_date=2024-06-02T00:00:00.000Z&end_date=2024-06-03'), [
      'customer.voucher.loyalty_card.points_added',
      'customer.updated',
    ]);
    const internal = (await activity('act-f', '?campaign_id=camp_promo')).body.data[0];
    assert.deepEqual(internal.data.event_source, { channel: 'INTERNAL' });
    assert.equal(internal.group_id, 'c-test');
    assertCustomerReference('GET', ACTIVITY, 200, (await activity('act-f')).body);
  });

  it('answers an empty page with has_more false and no more_starting_after', async () => {
    clock.set(T0);
    await server.request('POST', '/v1/customers', { body: { source_id: 'act-e' } });
    const res = await activity('act-e', '?type=customer.deleted');
    assert.deepEqual(res.body, { object: 'list', data_ref: 'data', data: [], has_more: false });
  });

  it('refuses bad parameters with every problem listed, an unknown event type included', async () => {
    clock.set(T0);
    await server.request('POST', '/v1/customers', { body: { source_id: 'act-bad' } });
    const res = await activity(
      'act-bad',
      '?limit=101&order=updated_at&start_date=soon&campaign_type=LOYALTY&category=CAUSE&type=customer.exploded',
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
          'Query parameter start_date must be an ISO 8601 date-time',
          'Query parameter campaign_type must be one of: DISCOUNT_COUPONS, GIFT_VOUCHERS, LOYALTY_PROGRAM, PROMOTION, REFERRAL_PROGRAM',
          'Query parameter category must be one of: ACTION, EFFECT',
          'Query parameter type must be a customer event name such as customer.created; customer.exploded is not one',
        ].join('; '),
      }),
    );
  });

  it('refuses a starting_after_id that is not an event of this customer', async () => {
    clock.set(T0);
    const a = await server.request('POST', '/v1/customers', { body: { source_id: 'act-a' } });
    await server.request('POST', '/v1/customers', { body: { source_id: 'act-b' } });
    const otherEvent = (await activity('act-b')).body.data[0].id as string;
    for (const cursor of [otherEvent, 'evcus_unknown']) {
      const res = await activity('act-a', `?starting_after_id=${cursor}`);
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: 400,
          key: 'invalid_query_params',
          message: 'Invalid query params',
          details: `Query parameter starting_after_id: ${cursor} is not an event of customer ${a.body.id}`,
        }),
      );
    }
  });

  it('is 404 for an unknown customer, and for a deleted one', async () => {
    const res = await activity('jck-wbh');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, notFoundBody(res, 'customer', 'jck-wbh'));
    assertCustomerReference('GET', ACTIVITY, 404, res.body);
    clock.set(T0);
    await server.request('POST', '/v1/customers', { body: { source_id: 'act-gone' } });
    await server.request('DELETE', '/v1/customers/act-gone');
    assert.equal((await activity('act-gone')).status, 404);
  });
});
