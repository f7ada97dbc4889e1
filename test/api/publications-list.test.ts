import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { expectError, invalidQueryError } from '../support/error-bodies.js';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const T = (minute: number) => `2025-03-01T10:0${minute}:00.000Z`;
const DISCOUNT = { type: 'PERCENT', percent_off: 10 };

/**
 * GET /v1/publications: four publications made at four times (a campaign's voucher, a loyalty
 * member's card, a named voucher with a source_id, a failed one), then the list's orders,
 * filters, `total` and refusals; created and listed through the official client too.
 */
describe('publications: GET /v1/publications', () => {
  let server: TestServer;
  const clock = fixedClock(T(0));
  const ids: Record<string, string> = {};
  const customers: Record<string, { id: string; source_id: string }> = {};
  let loyaltyCard: Record<string, unknown>;
  const vouchers = new Map<string, { id: string; code: string }>();
  const expect = {
    voucherId: (code: string) => vouchers.get(code)?.id,
    cardCode: () => vouchers.get('card')?.code,
    cardId: () => vouchers.get('card')?.id,
  };

  before(async () => {
    server = await startTestServer({ clock });
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Spring', { type: 'STATIC' }) });
    await server.request('POST', '/v1/campaigns/Spring/vouchers', { body: { code: 'SPRING-1' } });
    await server.request('POST', '/v1/vouchers/NAMED', { body: { discount: DISCOUNT } });
    const program = (
      await server.request('POST', '/v1/loyalties', {
        body: { name: 'Stars', voucher: { loyalty_card: { points: 0 }, code_config: { pattern: 'S-####' } } },
      })
    ).body;
    const publish = async (minute: number, body: Record<string, unknown>, path = '/v1/publications') => {
      clock.set(T(minute));
      return (await server.request('POST', path, { body })).body;
    };
    ids.spring = (
      await publish(1, { campaign: 'Spring', customer: { source_id: 'ann', name: 'Ann', email: 'ann@example.com' } })
    ).id;
    const card = await publish(
      2,
      { customer: { source_id: 'bob' }, channel: 'POS' },
      `/v1/loyalties/${program.id as string}/members`,
    );
    loyaltyCard = card.loyalty_card;
    ids.named = (
      await publish(3, {
        voucher: 'NAMED',
        customer: { source_id: 'cyd' },
        source_id: 'crm-7',
        metadata: { via: 'mail' },
      })
    ).id;
    await publish(4, { campaign: 'Spring', customer: { source_id: 'dan' } });
    for (const ref of ['ann', 'bob', 'cyd', 'dan'])
      customers[ref] = (await server.request('GET', `/v1/customers/${ref}`)).body;
    const all = (await server.request('GET', '/v1/publications')).body.publications as Array<{
      id: string;
      tracking_id: string;
    }>;
    ids.member = all.find((p) => p.tracking_id === 'bob')?.id as string;
    ids.failed = all.find((p) => p.tracking_id === 'dan')?.id as string;
    for (const code of ['SPRING-1', 'NAMED'])
      vouchers.set(code, (await server.request('GET', `/v1/vouchers/${code}`)).body);
    vouchers.set('card', (await server.request('GET', '/v1/loyalties/Stars/members')).body.vouchers[0]);
  });
  after(() => server.close());

  const simple = (ref: string, extra: Record<string, unknown> = {}) => ({
    id: customers[ref]?.id,
    source_id: ref,
    metadata: {},
    object: 'customer',
    ...extra,
  });
  const base = (ref: string, minute: number) => ({
    object: 'publication',
    created_at: T(minute),
    customer_id: customers[ref]?.id,
    tracking_id: ref,
    metadata: {},
    channel: 'API',
    source_id: null,
  });
  const items = () => ({
    spring: {
      id: ids.spring,
      ...base('ann', 1),
      result: 'SUCCESS',
      customer: simple('ann', { name: 'Ann', email: 'ann@example.com' }),
      vouchers: ['SPRING-1'],
      vouchers_id: [expect.voucherId('SPRING-1')],
      voucher: { code: 'SPRING-1', object: 'voucher', campaign: 'Spring', discount: DISCOUNT, is_referral_code: false },
    },
    member: {
      id: ids.member,
      ...base('bob', 2),
      channel: 'POS',
      result: 'SUCCESS',
      customer: simple('bob'),
      vouchers: [expect.cardCode()],
      vouchers_id: [expect.cardId()],
      voucher: {
        code: expect.cardCode(),
        object: 'voucher',
        campaign: 'Stars',
        loyalty_card: loyaltyCard,
        is_referral_code: false,
      },
    },
    named: {
      id: ids.named,
      ...base('cyd', 3),
      metadata: { via: 'mail' },
      source_id: 'crm-7',
      result: 'SUCCESS',
      customer: simple('cyd'),
      vouchers: ['NAMED'],
      vouchers_id: [expect.voucherId('NAMED')],
      voucher: { code: 'NAMED', object: 'voucher', campaign: null, discount: DISCOUNT, is_referral_code: false },
    },
    failed: {
      id: ids.failed,
      ...base('dan', 4),
      result: 'FAILURE',
      customer: simple('dan'),
      failure_code: 'no_voucher_suitable_for_publication',
      failure_message: 'Campaign Spring has no voucher left to publish',
    },
  });
  const list = async (query: string) => {
    const res = await server.request('GET', `/v1/publications${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesReference('GET', '/v1/publications', 200, res.body);
    return res.body;
  };
  const envelope = (publications: unknown[], total = publications.length) => ({
    object: 'list',
    data_ref: 'publications',
    publications,
    total,
  });

  it("lists every publication, newest first, with the exact total; a loyalty member's card is one", async () => {
    const { spring, member, named, failed } = items();
    assert.deepEqual(await list(''), envelope([failed, named, member, spring]));
    assert.deepEqual(await list('?order=created_at&limit=2&page=2'), envelope([named, failed], 4));
    assert.deepEqual(await list('?order=-channel'), envelope([member, failed, named, spring]));
  });

  it('filters by campaign, customer (id or source_id), voucher, result, voucher_type, is_referral_code and source_id', async () => {
    const { spring, member, named, failed } = items();
    assert.deepEqual(await list('?campaign=Spring'), envelope([failed, spring]));
    assert.deepEqual(await list('?customer=bob'), envelope([member]));
    assert.deepEqual(await list(`?customer=${customers.cyd?.id}`), envelope([named]));
    assert.deepEqual(await list('?voucher=NAMED'), envelope([named]));
    assert.deepEqual(await list('?result=FAILURE'), envelope([failed]));
    assert.deepEqual(await list('?voucher_type=loyalty'), envelope([member]));
    assert.deepEqual(await list('?voucher_type=discount&order=created_at'), envelope([spring, named]));
    assert.deepEqual(await list('?is_referral_code=true'), envelope([]));
    assert.deepEqual(await list('?source_id=crm-7'), envelope([named]));
    assert.deepEqual(await list('?customer=nobody'), envelope([]));
    assert.deepEqual(
      await list(
        '?filters[junction]=and&filters[campaign_name][conditions][$is]=Spring&filters[result][conditions][$in][0]=SUCCESS',
      ),
      envelope([spring]),
    );
    assert.deepEqual(await list('?order=voucher_code&voucher=NAMED'), envelope([named]));
    const own = await server.request('GET', '/v1/vouchers/NAMED/publications?page=1&limit=10');
    assert.deepEqual(
      [own.status, own.body],
      [200, envelope([named])],
      "the voucher's publish.url lists its publications",
    );
  });

  it('refuses what it cannot serve, naming it', async () => {
    const get = (query: string) => () => server.request('GET', `/v1/publications${query}`);
    await assertRefused(
      server,
      get('?colour[x]=red'),
      expectError(invalidQueryError('Unknown query parameter(s): colour[x]')),
    );
    // A plain parameter the list does not know is ignored, as the real API ignores it.
    const ignored = await server.request('GET', '/v1/publications?colour=red');
    assert.deepEqual([ignored.status, ignored.body], [200, (await server.request('GET', '/v1/publications')).body]);
    await assertRefused(
      server,
      get('?order=channel&campaign=Spring'),
      expectError(
        invalidQueryError(
          'Query parameter order=channel cannot be combined with campaign: no index serves them together; filter with the default order (created_at) instead',
        ),
      ),
    );
    await assertRefused(
      server,
      get('?voucher_type=gift'),
      expectError(invalidQueryError('Query parameter voucher_type must be one of: discount, loyalty')),
    );
    await assertRefused(
      server,
      get('?campaign=Spring&filters[campaign_name][conditions][$is]=Spring'),
      expectError(invalidQueryError('filters.campaign_name restricts what campaign restricts already; give it once')),
    );
    await assertRefused(
      server,
      get('?limit=0'),
      expectError(invalidQueryError('Query parameter limit must be between 1 and 100')),
    );
    const unserved = await server.request('GET', '/v1/publications?filters[parent_object_id][conditions][$is]=x');
    assert.deepEqual([unserved.status, unserved.body.key], [400, 'invalid_query_params']);
  });

  it('creates and lists through @voucherify/sdk', async () => {
    const client = serverSideClient(server);
    await server.request('POST', '/v1/campaigns/Spring/vouchers', { body: { code: 'SPRING-2' } });
    clock.set(T(5));
    const created = await client.distributions.publications.create({
      campaign: { name: 'Spring' },
      customer: { source_id: 'eve' },
      source_id: 'sdk-1',
    } as never);
    assert.deepEqual(
      [created.voucher.code, created.source_id, created.result, created.voucher.holder_id],
      ['SPRING-2', 'sdk-1', 'SUCCESS', created.customer_id],
    );
    const listed = await client.distributions.publications.list({ source_id: 'sdk-1' } as never);
    assert.deepEqual(
      listed.publications?.map((p) => p.id),
      [created.id],
    );
    const filtered = await client.distributions.publications.list({
      filters: { junction: 'AND', customer_id: { conditions: { $in: [created.customer_id] } } },
      limit: 5,
    });
    assert.deepEqual([filtered.total, filtered.publications?.[0]?.voucher?.code], [1, 'SPRING-2']);
    assert.deepEqual(server.logged, []);
  });
});
