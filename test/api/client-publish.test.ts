import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { dbFingerprint } from '../support/db.js';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { clientSideClient, type ClientSideClient } from '../support/sdk.js';
import { errorBody, notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { shortCustomer, voucherBody } from '../support/voucher-shape.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-03-01T10:00:00.000Z';
const DISCOUNT = { type: 'PERCENT', percent_off: 10 };

/**
 * The client-side publish (the SDK's `publish(campaign, payload, queryParams)`, POST
 * /client/v1/publish?campaign=...): one voucher of the campaign the query names, through the
 * same service as POST /v1/publications; a named voucher is for server keys only.
 */
describe('client-side publish (POST /client/v1/publish)', () => {
  let server: TestServer;
  let browser: ClientSideClient;
  let campaign: { id: string };
  const voucherIds = new Map<string, string>();

  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    browser = clientSideClient(server);
    campaign = (await server.request('POST', '/v1/campaigns', { body: discountCampaign('Spring', { type: 'STATIC' }) }))
      .body;
    for (const code of ['SPRING-1', 'SPRING-2'])
      voucherIds.set(code, (await server.request('POST', '/v1/campaigns/Spring/vouchers', { body: { code } })).body.id);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it("gives the customer the campaign's oldest free voucher; answers the publication as POST /v1/publications does", async () => {
    const answer = (await browser.publish('Spring', {
      customer: { source_id: 'ann', name: 'Ann' },
      metadata: { via: 'popup' },
    })) as unknown as Record<string, unknown>;
    const ann = (await server.request('GET', '/v1/customers/ann')).body;
    assert.deepEqual(answer, {
      id: answer.id,
      object: 'publication',
      created_at: NOW,
      customer_id: ann.id,
      tracking_id: 'ann',
      // The SDK's publish sends only the customer and the channel (its metadata stays behind).
      metadata: {},
      channel: 'Voucherify.js',
      source_id: null,
      result: 'SUCCESS',
      customer: shortCustomer(ann),
      vouchers_id: [voucherIds.get('SPRING-1')],
      voucher: voucherBody(
        { id: voucherIds.get('SPRING-1') as string, code: 'SPRING-1', created_at: NOW },
        {
          campaign: 'Spring',
          campaign_id: campaign.id,
          discount: DISCOUNT,
          updated_at: NOW,
          holder_id: ann.id,
          publish: { object: 'list', count: 1, url: '/v1/vouchers/SPRING-1/publications?page=1&limit=10' },
        },
      ),
    });
    // The reference's `channel` enum holds only API, though its text allows "your own custom channel".
    assertMatchesReference('POST', '/v1/publications', 200, withoutNulls({ ...answer, channel: 'API' }));
    const feed = (await server.request('GET', '/v1/customers/ann/activity?order=created_at')).body.data;
    assert.deepEqual(
      feed.map((e: { type: string; data: { event_source: { channel: string } } }) => [
        e.type,
        e.data.event_source.channel,
      ]),
      [
        ['customer.created', 'CLIENT_API'],
        ['customer.publication.succeeded', 'CLIENT_API'],
      ],
    );
  });

  it('join_once=true gives the same customer the voucher they already hold', async () => {
    const again = (await browser.publish(
      'Spring',
      { customer: { source_id: 'ann' } },
      { join_once: true },
    )) as unknown as { voucher: { code: string } };
    assert.equal(again.voucher.code, 'SPRING-1');
    const list = (await server.request('GET', '/v1/publications?customer=ann')).body;
    assert.equal(list.total, 1);
  });

  it('refuses a named voucher, a missing campaign, a bad body or an unknown campaign, and writes nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const send = (query: string, body: unknown) =>
      server.request('POST', `/client/v1/publish${query}`, { body, auth: 'client' });
    const invalid = (res: TestResponse, details: string) =>
      errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });
    const cases: Array<[string, unknown, (res: TestResponse) => unknown]> = [
      [
        '?campaign=Spring',
        { customer: { source_id: 'bob' }, voucher: 'SPRING-2' },
        (res) =>
          invalid(res, 'voucher cannot be named client-side: a client key publishes from the campaign the query names'),
      ],
      [
        '',
        { customer: { source_id: 'bob' } },
        (res) =>
          errorBody(res, {
            code: 400,
            key: 'invalid_query_params',
            message: 'Invalid query params',
            details: 'Query parameter campaign is required: the campaign to publish from',
          }),
      ],
      ['?campaign=Spring', { customer: 'bob' }, (res) => invalid(res, 'customer must be an object')],
      ['?campaign=Spring', { channel: 'web' }, (res) => invalid(res, 'customer is a required field')],
      [
        '?campaign=Spring&join_once=yes',
        { customer: { source_id: 'bob' } },
        (res) =>
          errorBody(res, {
            code: 400,
            key: 'invalid_query_params',
            message: 'Invalid query params',
            details: 'Query parameter join_once must be one of: true, false',
          }),
      ],
      ['?campaign=Autumn', { customer: { source_id: 'bob' } }, (res) => notFoundBody(res, 'campaign', 'Autumn')],
    ];
    for (const [query, body, expected] of cases) {
      const res = await send(query, body);
      assert.deepEqual(res.body, expected(res), `${query} ${JSON.stringify(body)}`);
    }
    const serverKey = await server.request('POST', '/client/v1/publish?campaign=Spring', {
      body: { customer: { source_id: 'bob' } },
      auth: 'server',
    });
    assert.deepEqual([serverKey.status, serverKey.body.key], [401, 'unauthorized']);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });
});
