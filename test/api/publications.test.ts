import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { dbFingerprint } from '../support/db.js';
import { invalidPayloadError, invalidQueryError, expectError, notFoundError } from '../support/error-bodies.js';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference, assertMatchesSchema, withoutNulls } from '../support/openapi.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { shortCustomer, voucherBody } from '../support/voucher-shape.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-03-01T10:00:00.000Z';
const DISCOUNT = { type: 'PERCENT', percent_off: 10 };

/** The publication's own fields, as both create and list answer them. */
const publicationFields = (
  id: string,
  customer: { id: string; source_id: string },
  fields: Record<string, unknown> = {},
) => ({
  id,
  object: 'publication',
  created_at: NOW,
  customer_id: customer.id,
  tracking_id: customer.source_id,
  metadata: {},
  channel: 'API',
  source_id: null,
  result: 'SUCCESS',
  ...fields,
});

describe('publications: POST /v1/publications and GET /v1/publications/create', () => {
  let server: TestServer;
  let campaign: { id: string };
  const voucherIds = new Map<string, string>();
  const customerOf = async (ref: string) => (await server.request('GET', `/v1/customers/${ref}`)).body;

  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    campaign = (await server.request('POST', '/v1/campaigns', { body: discountCampaign('Spring', { type: 'STATIC' }) }))
      .body;
    for (const code of ['SPRING-1', 'SPRING-2'])
      voucherIds.set(code, (await server.request('POST', '/v1/campaigns/Spring/vouchers', { body: { code } })).body.id);
    voucherIds.set(
      'NAMED',
      (await server.request('POST', '/v1/vouchers/NAMED', { body: { discount: DISCOUNT } })).body.id,
    );
  });
  after(() => server.close());

  const springVoucher = (code: string, holderId: string, count = 1) =>
    voucherBody(
      { id: voucherIds.get(code) as string, code, created_at: NOW },
      {
        campaign: 'Spring',
        campaign_id: campaign.id,
        discount: DISCOUNT,
        updated_at: NOW,
        holder_id: holderId,
        publish: { object: 'list', count, url: `/v1/vouchers/${code}/publications?page=1&limit=10` },
      },
    );

  it("gives a customer the campaign's oldest free voucher, upserting the customer; answers the voucher whole and the customer short (SimpleCustomer)", async () => {
    const res = await server.request('POST', '/v1/publications', {
      body: {
        campaign: { name: 'Spring', count: 1 },
        customer: { source_id: 'ann', name: 'Ann', email: 'ann@example.com' },
        source_id: 'pub-ann',
      },
    });
    assert.equal(res.status, 200);
    const ann = await customerOf('ann');
    assert.deepEqual(res.body, {
      ...publicationFields(res.body.id, ann, { source_id: 'pub-ann' }),
      customer: shortCustomer(ann),
      vouchers_id: [voucherIds.get('SPRING-1')],
      voucher: springVoucher('SPRING-1', ann.id),
    });
    assert.match(res.body.id, /^pub_[0-9A-Za-z]{16}$/);
    assertMatchesReference('POST', '/v1/publications', 200, withoutNulls(res.body));
    assert.deepEqual((await server.request('GET', '/v1/vouchers/SPRING-1')).body, springVoucher('SPRING-1', ann.id));

    const feed = (await server.request('GET', '/v1/customers/ann/activity?order=created_at')).body.data;
    assert.deepEqual(
      feed.map((e: { type: string }) => e.type),
      ['customer.created', 'customer.publication.succeeded'],
    );
    const event = feed[1].data.data;
    assertMatchesSchema('EventCustomerPublicationSucceeded', event);
    assert.deepEqual(event.publication, {
      ...publicationFields(res.body.id, ann, { source_id: 'pub-ann' }),
      customer: ann,
      vouchers: ['SPRING-1'],
      vouchers_id: [voucherIds.get('SPRING-1')],
      voucher: { code: 'SPRING-1', object: 'voucher', campaign: 'Spring', discount: DISCOUNT, is_referral_code: false },
    });
    assert.deepEqual(event.customer, {
      id: ann.id,
      name: 'Ann',
      email: 'ann@example.com',
      source_id: 'ann',
      metadata: {},
      object: 'customer',
    });
  });

  it('answers a retry with the same source_id with the same publication, writing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const first = (await server.request('GET', '/v1/publications?source_id=pub-ann')).body.publications[0];
    const again = await server.request('POST', '/v1/publications', {
      body: { campaign: 'Spring', customer: { source_id: 'ann' }, source_id: 'pub-ann' },
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.id);
    assert.deepEqual(again.body.voucher, springVoucher('SPRING-1', first.customer_id));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it("with join_once answers the customer's earlier publication in the campaign; without, gives the next voucher", async () => {
    const earlier = (await server.request('GET', '/v1/publications?customer=ann')).body.publications[0];
    const before = dbFingerprint(sqliteOf(server.deps));
    const once = await server.request('POST', '/v1/publications?join_once=true', {
      body: { campaign: 'Spring', customer: { source_id: 'ann' } },
    });
    assert.deepEqual([once.status, once.body.id], [200, earlier.id]);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    const second = await server.request('POST', '/v1/publications?join_once=false', {
      body: { campaign: 'Spring', customer: { source_id: 'ann' } },
    });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body.voucher, springVoucher('SPRING-2', earlier.customer_id));
  });

  it('records a publication from an exhausted STATIC campaign as failed, with a customer.publication.failed event', async () => {
    const res = await server.request('POST', '/v1/publications', {
      body: { campaign: 'Spring', customer: { source_id: 'bob' }, channel: 'POS' },
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'no_voucher_suitable_for_publication',
        message: "Couldn't find any voucher suitable for publication.",
        details: 'Campaign Spring has no voucher left to publish',
        resource_id: campaign.id,
        resource_type: 'campaign',
      }),
    );
    const bob = await customerOf('bob');
    const failed = {
      ...publicationFields(
        (await server.request('GET', '/v1/publications?result=FAILURE')).body.publications[0].id,
        bob,
        { channel: 'POS', result: 'FAILURE' },
      ),
      failure_code: 'no_voucher_suitable_for_publication',
      failure_message: 'Campaign Spring has no voucher left to publish',
    };
    const list = (await server.request('GET', '/v1/publications?result=FAILURE')).body;
    assert.deepEqual(list, {
      object: 'list',
      data_ref: 'publications',
      publications: [{ ...failed, customer: { id: bob.id, source_id: 'bob', metadata: {}, object: 'customer' } }],
      total: 1,
    });
    assertMatchesReference('GET', '/v1/publications', 200, list);
    const feed = (await server.request('GET', '/v1/customers/bob/activity?order=created_at')).body.data;
    assert.deepEqual(
      feed.map((e: { type: string }) => e.type),
      ['customer.created', 'customer.publication.failed'],
    );
    // The reference's event schema types its publication as a successful one; the rest is checked.
    assert.deepEqual(feed[1].data.data.publication, { ...failed, customer: bob });
  });

  it("gives a named voucher with the request's metadata and channel; another customer is refused (409) and recorded", async () => {
    const res = await server.request('POST', '/v1/publications', {
      body: { voucher: 'NAMED', customer: { source_id: 'cyd' }, metadata: { via: 'mail' }, channel: 'Newsletter' },
    });
    const cyd = await customerOf('cyd');
    assert.deepEqual(res.body, {
      ...publicationFields(res.body.id, cyd, { metadata: { via: 'mail' }, channel: 'Newsletter' }),
      customer: shortCustomer(cyd),
      vouchers_id: [voucherIds.get('NAMED')],
      voucher: voucherBody(
        { id: voucherIds.get('NAMED') as string, code: 'NAMED', created_at: NOW },
        {
          discount: DISCOUNT,
          updated_at: NOW,
          holder_id: cyd.id,
          publish: { object: 'list', count: 1, url: '/v1/vouchers/NAMED/publications?page=1&limit=10' },
        },
      ),
    });
    const taken = await server.request('POST', '/v1/publications', {
      body: { voucher: 'NAMED', customer: { source_id: 'dan' } },
    });
    assert.deepEqual(
      taken.body,
      errorBody(taken, {
        code: 409,
        key: 'holder_assignement_duplication',
        message: 'Holder assignment duplication',
        details: 'Voucher NAMED is already held by another customer',
        resource_id: 'NAMED',
        resource_type: 'voucher',
      }),
    );
    const failures = (await server.request('GET', '/v1/publications?result=FAILURE&voucher=NAMED')).body;
    assert.equal(failures.total, 1);
    assert.equal(failures.publications[0].failure_code, 'holder_assignement_duplication');
  });

  it('makes a new voucher when an AUTO_UPDATE campaign has none free', async () => {
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Auto', { type: 'AUTO_UPDATE' }, { code_config: { pattern: 'AU-####' } }),
    });
    const res = await server.request('POST', '/v1/publications', {
      body: { campaign: 'Auto', customer: { source_id: 'eve' } },
    });
    assert.equal(res.status, 200);
    assert.match(res.body.voucher.code, /^AU-[0-9A-Za-z]{4}$/);
    assert.deepEqual([res.body.voucher.holder_id, res.body.voucher.publish.count], [res.body.customer_id, 1]);
    assert.equal((await server.request('GET', '/v1/campaigns/Auto')).body.vouchers_count, 1);
  });

  it('GET /v1/publications/create takes the same request as deepObject query parameters', async () => {
    await server.request('POST', '/v1/campaigns/Auto/vouchers', { body: { code: 'AUTO-Q' } });
    const res = await server.request(
      'GET',
      '/v1/publications/create?campaign[name]=Auto&customer[source_id]=fay&customer[address][city]=Oslo&metadata[k]=v&channel=Kiosk&source_id=q-1',
    );
    assert.equal(res.status, 200);
    const fay = await customerOf('fay');
    assert.deepEqual(fay.address, { city: 'Oslo' });
    assert.deepEqual(
      [res.body.voucher.code, res.body.metadata, res.body.channel, res.body.source_id, res.body.customer],
      ['AUTO-Q', { k: 'v' }, 'Kiosk', 'q-1', shortCustomer(fay)],
    );
    assertMatchesReference('GET', '/v1/publications/create', 200, withoutNulls({ ...res.body, channel: 'API' }));
  });

  it('refuses wrong requests and leaves the database unchanged', async () => {
    const post =
      (body: unknown, query = '') =>
      () =>
        server.request('POST', `/v1/publications${query}`, { body });
    await assertRefused(
      server,
      post({ customer: { source_id: 'gus' } }),
      expectError(invalidPayloadError('Either voucher or campaign is required')),
    );
    await assertRefused(
      server,
      post({ campaign: 'Spring' }),
      expectError(invalidPayloadError('customer is a required field')),
    );
    await assertRefused(
      server,
      post({ campaign: { name: 'Spring', count: 51 }, customer: { source_id: 'gus' } }),
      expectError(invalidPayloadError('campaign.count must be less than or equal to 50')),
    );
    await assertRefused(
      server,
      post({ campaign: 'Nope', customer: { source_id: 'gus' } }),
      expectError(notFoundError('campaign', 'Nope')),
    );
    await assertRefused(
      server,
      post({ voucher: 'NOPE', customer: { source_id: 'gus' } }),
      expectError(notFoundError('voucher', 'NOPE')),
    );
    await assertRefused(server, post({ voucher: 'NAMED', campaign: 'Spring', customer: { source_id: 'gus' } }), (res) =>
      errorBody(res, {
        code: 400,
        key: 'invalid_voucher',
        message: 'Invalid voucher',
        details: `Voucher NAMED is not a voucher of campaign ${campaign.id}`,
      }),
    );
    await assertRefused(
      server,
      post({ campaign: 'Auto', customer: { source_id: 'gus' } }, '?join_once=yes'),
      expectError(invalidQueryError('Query parameter join_once must be one of: true, false')),
    );
    await assertRefused(
      server,
      () => server.request('GET', '/v1/publications/create?campaign=Auto&customer[source_id]=gus&colour=red'),
      expectError(invalidQueryError('Unknown query parameter: colour')),
    );
  });
});
