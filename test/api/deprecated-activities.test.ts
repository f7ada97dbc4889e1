import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference, assertMatchesSchema, withoutNulls } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

/**
 * The deprecated `/activities` forms the SDK still calls (`customers.listActivities`,
 * `loyalties.getMemberActivities`): served by the `/activity` services, the same events and
 * cursor, plus the deprecated lists' `total` (and `activities` as the member list's data_ref).
 */
describe('deprecated activities: /v1/customers/{id}/activities, /v1/loyalties/[{campaignId}/]members/{memberId}/activities', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  const clock = fixedClock('2026-03-02T10:00:00.000Z');
  let card: { code: string; campaign_id: string };
  let bare: { code: string };

  const get = (path: string) => server.request('GET', path);

  before(async () => {
    server = await startTestServer({ clock });
    sdk = serverSideClient(server);
    await server.request('POST', '/v1/loyalties', {
      body: { name: 'Club', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
    });
    card = (await server.request('POST', '/v1/loyalties/Club/members', { body: { customer: { source_id: 'ann' } } }))
      .body;
    bare = (await server.request('POST', '/v1/campaigns/Club/vouchers', { body: {} })).body;
    for (const name of ['Ann A', 'Ann B']) {
      clock.advance(1000);
      await server.request('PUT', '/v1/customers/ann', { body: { name } });
    }
    clock.advance(1000);
    await server.request('POST', `/v1/loyalties/members/${card.code}/balance`, { body: { points: 40 } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('customers.listActivities answers the /activity page with total, its filters and cursor alike', async () => {
    const current = (await get('/v1/customers/ann/activity?limit=2')).body;
    const legacy = await sdk.customers.listActivities('ann', { limit: 2 });
    const all = (await get('/v1/customers/ann/activity?limit=100')).body.data;
    assert.deepEqual(legacy, {
      object: 'list',
      data_ref: 'data',
      data: current.data,
      total: all.length,
      has_more: true,
      more_starting_after: current.more_starting_after,
    });
    for (const item of (legacy as unknown as { data: unknown[] }).data)
      assertMatchesSchema('CustomerActivity', withoutNulls(item) as never);
    assertMatchesReference(
      'GET',
      '/v1/customers/{customerId}/activity',
      200,
      withoutNulls({ ...legacy, total: undefined }) as never,
    );

    const rest = await sdk.customers.listActivities('ann', {
      limit: 100,
      starting_after_id: current.more_starting_after,
    } as never);
    assert.deepEqual(rest, {
      object: 'list',
      data_ref: 'data',
      data: all.slice(2),
      total: all.length,
      has_more: false,
    });
    const updates = (await get('/v1/customers/ann/activities?type=customer.updated&order=created_at')).body;
    assert.deepEqual(
      [
        updates.total,
        updates.data.map((e: { data: { data: { customer: { name: string } } } }) => e.data.data.customer.name),
      ],
      [2, ['Ann A', 'Ann B']],
    );
  });

  it("loyalties.getMemberActivities answers the member's /activity events under activities, with total, with or without the program", async () => {
    const current = (await get(`/v1/loyalties/members/${card.code}/activity`)).body;
    assert.ok(current.data.length > 0);
    const expected = {
      object: 'list',
      data_ref: 'activities',
      activities: current.data,
      total: current.data.length,
      has_more: false,
    };
    assert.deepEqual(await sdk.loyalties.getMemberActivities(card.campaign_id, card.code), expected);
    assert.deepEqual(await sdk.loyalties.getMemberActivities(null as never, card.code), expected);
    assert.deepEqual((await get(`/v1/loyalties/Club/members/${bare.code}/activities`)).body, {
      object: 'list',
      data_ref: 'activities',
      activities: [],
      total: 0,
      has_more: false,
    });
  });

  it('refuses unknown customers and cards, and bad queries, with the documented bodies', async () => {
    const unknownCustomer = await get('/v1/customers/nobody/activities');
    assert.deepEqual(unknownCustomer.body, notFoundBody(unknownCustomer, 'customer', 'nobody'));
    const unknownCard = await get('/v1/loyalties/members/NO-CARD/activities');
    assert.deepEqual(
      [unknownCard.status, unknownCard.body.key, unknownCard.body.resource_id],
      [404, 'not_found', 'NO-CARD'],
    );
    const badLimit = await get('/v1/customers/ann/activities?limit=0');
    assert.deepEqual(
      badLimit.body,
      errorBody(badLimit, {
        code: 400,
        key: 'invalid_query_params',
        message: 'Invalid query params',
        details: (await get('/v1/customers/ann/activity?limit=0')).body.details,
      }),
    );
    await assert.rejects(sdk.customers.listActivities('nobody', {}), (error: Record<string, unknown>) => {
      assert.deepEqual(
        [error.code, error.key, error.details],
        [404, 'not_found', 'Cannot find customer with id nobody'],
      );
      return true;
    });
  });
});
