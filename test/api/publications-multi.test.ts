import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { loadMigrations, migrate } from '../../src/db/sqlite/migrate.js';
import { fixedClock } from '../../src/lib/clock.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { invalidPayloadError, expectError } from '../support/error-bodies.js';
import { tempDir } from '../support/db.js';
import { discountCampaign, percentDiscount } from '../support/factories.js';
import { assertMatchesReference, assertMatchesSchema, withoutNulls } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { shortCustomer } from '../support/voucher-shape.js';

const NOW = '2025-03-01T10:00:00.000Z';

/** POST /v1/publications with `campaign: {name, count}` above 1: that many vouchers in one publication, all or none. */
describe('publications of several vouchers (campaign.count > 1)', () => {
  let server: TestServer;
  const ids = new Map<string, string>();
  const customerOf = async (ref: string) => (await server.request('GET', `/v1/customers/${ref}`)).body;
  const voucher = async (code: string) => (await server.request('GET', `/v1/vouchers/${code}`)).body;

  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Trio', { type: 'STATIC' }) });
    for (const code of ['T-1', 'T-2', 'T-3', 'T-4'])
      ids.set(code, (await server.request('POST', '/v1/campaigns/Trio/vouchers', { body: { code } })).body.id);
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Auto', { type: 'AUTO_UPDATE' }, { code_config: { pattern: 'AU-####' } }),
    });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it("gives the campaign's next vouchers in one publication, answering `vouchers` and `vouchers_id` instead of `voucher`", async () => {
    const res = await server.request('POST', '/v1/publications', {
      body: {
        campaign: { name: 'Trio', count: 3 },
        customer: { source_id: 'ann', name: 'Ann' },
        source_id: 'multi-ann',
        metadata: { n: 3 },
      },
    });
    assert.equal(res.status, 200, res.text);
    const ann = await customerOf('ann');
    const own = {
      id: res.body.id,
      object: 'publication',
      created_at: NOW,
      customer_id: ann.id,
      tracking_id: 'ann',
      metadata: { n: 3 },
      channel: 'API',
      source_id: 'multi-ann',
      result: 'SUCCESS',
    };
    const given = { vouchers_id: ['T-1', 'T-2', 'T-3'].map((code) => ids.get(code)), vouchers: ['T-1', 'T-2', 'T-3'] };
    assert.deepEqual(res.body, { ...own, customer: shortCustomer(ann), ...given });
    assertMatchesReference('POST', '/v1/publications', 200, withoutNulls(res.body));
    for (const code of ['T-1', 'T-2', 'T-3'])
      assert.deepEqual([(await voucher(code)).holder_id, (await voucher(code)).publish.count], [ann.id, 1], code);
    assert.deepEqual([(await voucher('T-4')).holder_id, (await voucher('T-4')).publish.count], [undefined, 0]);

    const list = (await server.request('GET', '/v1/publications?customer=ann')).body;
    const listed = {
      ...own,
      customer: { id: ann.id, name: 'Ann', source_id: 'ann', metadata: {}, object: 'customer' },
      ...given,
    };
    assert.deepEqual(list, { object: 'list', data_ref: 'publications', publications: [listed], total: 1 });
    assertMatchesReference('GET', '/v1/publications', 200, list);
    const feed = (await server.request('GET', '/v1/customers/ann/activity?order=created_at')).body.data;
    assert.deepEqual(
      feed.map((e: { type: string }) => e.type),
      ['customer.created', 'customer.publication.succeeded'],
    );
    // The reference's event schema types its publication as one of a single voucher (`voucher`
    // required): the rest of the event is checked against it, the publication whole here.
    assertMatchesSchema('EventCustomerPublicationSucceeded', {
      ...feed[1].data.data,
      publication: {
        ...feed[1].data.data.publication,
        voucher: {
          code: 'T-1',
          object: 'voucher',
          campaign: 'Trio',
          discount: percentDiscount,
          is_referral_code: false,
        },
      },
    });
    assert.deepEqual(feed[1].data.data.publication, {
      ...own,
      customer: ann,
      vouchers: given.vouchers,
      vouchers_id: given.vouchers_id,
    });

    const again = await server.request('POST', '/v1/publications', {
      body: { campaign: { name: 'Trio', count: 3 }, customer: { source_id: 'ann' }, source_id: 'multi-ann' },
    });
    assert.deepEqual(again.body, res.body, 'a retry with the source_id answers the same publication');

    // Every voucher it gave finds it: the list's `voucher` filter (alone, beside filters that
    // drive the walk themselves) and the voucher's own publications.
    const only = { object: 'list', data_ref: 'publications', publications: [listed], total: 1 };
    for (const code of ['T-1', 'T-2', 'T-3']) {
      for (const query of [
        `voucher=${code}`,
        `voucher=${code}&customer=ann`,
        `voucher=${code}&source_id=multi-ann`,
        `voucher=${code}&result=SUCCESS&order=-created_at`,
      ]) {
        assert.deepEqual((await server.request('GET', `/v1/publications?${query}`)).body, only, query);
      }
      assert.deepEqual((await server.request('GET', `/v1/vouchers/${code}/publications`)).body, only, code);
    }
    const none = { object: 'list', data_ref: 'publications', publications: [], total: 0 };
    assert.deepEqual((await server.request('GET', '/v1/publications?voucher=T-4')).body, none);
    assert.deepEqual((await server.request('GET', '/v1/publications?voucher=T-2&customer=nobody')).body, none);
  });

  it('gives none when the campaign has fewer left: the refusal is recorded as one failed publication', async () => {
    const res = await server.request('POST', '/v1/publications', {
      body: { campaign: { name: 'Trio', count: 2 }, customer: { source_id: 'bob' } },
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'no_voucher_suitable_for_publication',
        message: "Couldn't find any voucher suitable for publication.",
        details: 'Campaign Trio has 1 of the 2 vouchers asked for left to publish',
        resource_id: (await server.request('GET', '/v1/campaigns/Trio')).body.id,
        resource_type: 'campaign',
      }),
    );
    assert.deepEqual(
      [(await voucher('T-4')).holder_id, (await voucher('T-4')).publish.count],
      [undefined, 0],
      'the voucher claimed before the shortfall was given back',
    );
    const failed = (await server.request('GET', '/v1/publications?customer=bob')).body.publications;
    assert.deepEqual(
      failed.map((p: Record<string, unknown>) => [p.result, p.failure_code, 'vouchers' in p]),
      [['FAILURE', 'no_voucher_suitable_for_publication', false]],
    );
  });

  it('makes the missing vouchers of an AUTO_UPDATE campaign; the query form and @voucherify/sdk take a count too', async () => {
    await server.request('POST', '/v1/campaigns/Auto/vouchers', { body: { code: 'AU-FREE' } });
    const res = await server.request(
      'GET',
      '/v1/publications/create?campaign[name]=Auto&campaign[count]=3&customer[source_id]=cyd',
    );
    assert.equal(res.status, 200, res.text);
    const cyd = await customerOf('cyd');
    assert.equal(res.body.vouchers[0], 'AU-FREE');
    assert.equal(res.body.vouchers.length, 3);
    for (const code of res.body.vouchers.slice(1)) assert.match(code, /^AU-[0-9A-Za-z]{4}$/);
    for (const [i, code] of res.body.vouchers.entries())
      assert.deepEqual([(await voucher(code)).id, (await voucher(code)).holder_id], [res.body.vouchers_id[i], cyd.id]);
    assert.equal((await server.request('GET', '/v1/campaigns/Auto')).body.vouchers_count, 3);

    const created = await serverSideClient(server).distributions.publications.create({
      campaign: { name: 'Auto', count: 2 },
      customer: { source_id: 'dot' },
    });
    const dot = await customerOf('dot');
    const answer = created as unknown as {
      vouchers: string[];
      vouchers_id: string[];
      customer_id: string;
      voucher?: unknown;
    };
    assert.deepEqual(
      [answer.vouchers.length, answer.vouchers_id.length, answer.customer_id, 'voucher' in answer],
      [2, 2, dot.id, false],
    );
  });

  it('refuses a count out of 1..50, or above 1 with a named voucher, and writes nothing', async () => {
    const post =
      (campaign: unknown, extra: Record<string, unknown> = {}) =>
      () =>
        server.request('POST', '/v1/publications', { body: { campaign, customer: { source_id: 'gus' }, ...extra } });
    await assertRefused(
      server,
      post({ name: 'Trio', count: 51 }),
      expectError(invalidPayloadError('campaign.count must be less than or equal to 50')),
    );
    await assertRefused(
      server,
      post({ name: 'Trio', count: 0 }),
      expectError(invalidPayloadError('campaign.count must be greater than or equal to 1')),
    );
    await assertRefused(
      server,
      post({ name: 'Trio', count: 2.5 }),
      expectError(invalidPayloadError('campaign.count must be an integer')),
    );
    await assertRefused(
      server,
      post({ name: 'Trio', count: 'two' }),
      expectError(invalidPayloadError('campaign.count must be a number')),
    );
    await assertRefused(
      server,
      post({ name: 'Trio', count: 2 }, { voucher: 'T-4' }),
      expectError(
        invalidPayloadError(
          'campaign.count above 1 takes vouchers from the campaign: it cannot go with a named voucher',
        ),
      ),
    );
  });
});

describe('sql/0030 on a database that already holds publications', () => {
  it('gives every voucher of each publication its row: one for a single voucher, each of several', () => {
    const sqlite = openSqlite(join(tempDir(), 'promo.db'));
    const migrations = loadMigrations();
    migrate(
      sqlite,
      migrations.filter((m) => m.version < 30),
    );
    const at = (n: number) => `2025-01-0${n}T00:00:00.000Z`;
    sqlite.exec(`
      INSERT INTO publications (id, created_at, customer_id, channel, result, voucher_id, voucher_code, vouchers) VALUES
        ('pub_1', '${at(1)}', 'cust_1', 'API', 'SUCCESS', 'v_1', 'ONE', NULL),
        ('pub_2', '${at(2)}', 'cust_1', 'API', 'SUCCESS', 'v_2', 'M-1', '[{"id":"v_2","code":"M-1"},{"id":"v_3","code":"M-2"}]');
      INSERT INTO publications (id, created_at, customer_id, channel, result, failure_code) VALUES
        ('pub_3', '${at(3)}', 'cust_1', 'API', 'FAILURE', 'no_voucher_suitable_for_publication');`);
    migrate(sqlite, migrations);
    const rows = sqlite
      .prepare('SELECT voucher_code, created_at, publication_seq FROM publication_vouchers ORDER BY voucher_code')
      .all();
    sqlite.close();
    assert.deepEqual(rows, [
      { voucher_code: 'M-1', created_at: at(2), publication_seq: 2 },
      { voucher_code: 'M-2', created_at: at(2), publication_seq: 2 },
      { voucher_code: 'ONE', created_at: at(1), publication_seq: 1 },
    ]);
  });
});
