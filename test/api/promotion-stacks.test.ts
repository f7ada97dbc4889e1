import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { removeCampaignRow } from '../../src/modules/campaigns/index.js';
import { findPromotionStack } from '../../src/modules/campaigns/promotion-stacks.service.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import {
  expectError,
  invalidPayloadError,
  invalidQueryError,
  notFoundError,
  type ExpectedError,
} from '../support/error-bodies.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const clock = fixedClock('2024-06-01T08:00:00.000Z');
const at = () => clock.now().toISOString();
const action = { discount: { type: 'PERCENT', percent_off: 5 } };
const promotion = (name: string, tiers: number) => ({
  name,
  campaign_type: 'PROMOTION',
  promotion: { tiers: Array.from({ length: tiers }, (_, i) => ({ name: `${name} ${i}`, action })) },
});

describe('promotion stacks API', () => {
  let server: TestServer;
  let summer: string;
  let tiers: string[];
  let otherTier: string;

  before(async () => {
    server = await startTestServer({ clock });
    const created = await server.request('POST', '/v1/campaigns', { body: promotion('Summer', 31) });
    summer = created.body.id;
    tiers = created.body.promotion.tiers.map((t: { id: string }) => t.id);
    otherTier = (await server.request('POST', '/v1/campaigns', { body: promotion('Winter', 1) })).body.promotion
      .tiers[0].id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));
  const stack = (id: string, name: string, ids: string[], fields: Record<string, unknown> = {}) => ({
    id,
    name,
    created_at: at(),
    campaign_id: summer,
    object: 'promotion_stack',
    tiers: { ids, hierarchy_mode: 'MANUAL' },
    categories: [],
    ...fields,
  });

  let first: Record<string, unknown>;

  it("creates a stack of the campaign's tiers in the order given, and the pipeline finds it", async () => {
    clock.advance(1000);
    const ids = [tiers[2], tiers[0]] as string[];
    const res = await server.request('POST', '/v1/promotions/Summer/stacks', {
      body: { name: 'Pair', tiers: { ids, hierarchy_mode: 'MANUAL' } },
    });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^stack_[0-9A-Za-z]{16}$/);
    first = stack(res.body.id, 'Pair', ids);
    assert.deepEqual(res.body, first);
    assertMatchesReference('POST', '/v1/promotions/{campaignId}/stacks', 200, withoutNulls(res.body));
    assert.deepEqual(await findPromotionStack(server.deps.db, res.body.id as string), {
      id: res.body.id,
      campaign_id: summer,
      name: 'Pair',
      tier_ids: ids,
    });
    assert.equal(await findPromotionStack(server.deps.db, 'stack_none'), undefined);
  });

  it('refuses stacks beyond 30 tiers, repeated, unknown or foreign tiers, changing nothing', async () => {
    const post =
      (body: unknown, campaign = 'Summer') =>
      () =>
        server.request('POST', `/v1/promotions/${campaign}/stacks`, { body });
    await refused(
      post({ name: 'Big', tiers: { ids: tiers } }),
      invalidPayloadError('tiers.ids must hold at most 30 tiers'),
    );
    await refused(
      post({ name: 'Twice', tiers: { ids: [tiers[0], tiers[0]], hierarchy_mode: 'AUTO' } }),
      invalidPayloadError('tiers.ids must not name a tier twice; tiers.hierarchy_mode must be one of: MANUAL'),
    );
    await refused(
      post({ tiers: { ids: [] } }),
      invalidPayloadError('name is a required field; tiers.ids must hold at least one tier'),
    );
    await refused(
      post({ name: 'Unknown', tiers: { ids: ['promo_none'] } }),
      notFoundError('promotion_tier', 'promo_none'),
    );
    await refused(
      post({ name: 'Foreign', tiers: { ids: [tiers[1], otherTier] } }),
      invalidPayloadError(`tiers.ids: ${otherTier} is not a tier of campaign ${summer}`),
    );
    await refused(
      post({ name: 'Category', tiers: { ids: [tiers[1]] }, category_id: 'cat_none' }),
      notFoundError('category', 'cat_none'),
    );
    await refused(post({ name: 'Nowhere', tiers: { ids: [tiers[1]] } }, 'Autumn'), notFoundError('campaign', 'Autumn'));
    await refused(
      () => server.request('GET', `/v1/promotions/Winter/stacks/${first.id as string}`),
      notFoundError('promotion_stack', first.id as string),
    );
    await refused(
      () => server.request('PUT', `/v1/promotions/Summer/stacks/stack_none`, { body: { name: 'x' } }),
      notFoundError('promotion_stack', 'stack_none'),
    );
    await refused(() => server.request('DELETE', `/v1/promotions/tiers/${tiers[2] as string}`), {
      code: 400,
      key: 'resource_in_use',
      message: 'Resource in use',
      details: `Promotion tier ${tiers[2] as string} is in promotion stack ${first.id as string}; remove it from the stack first`,
    });
  });

  let second: Record<string, unknown>;

  it('gets, updates and lists stacks', async () => {
    const got = await server.request('GET', `/v1/promotions/${summer}/stacks/${first.id as string}`);
    assert.deepEqual(got.body, first);
    assertMatchesReference('GET', '/v1/promotions/{campaignId}/stacks/{stackId}', 200, withoutNulls(got.body));

    clock.advance(1000);
    const created = await server.request('POST', '/v1/promotions/Summer/stacks', {
      body: { name: 'All', tiers: { ids: tiers.slice(0, 30) } },
    });
    second = stack(created.body.id, 'All', tiers.slice(0, 30));
    assert.deepEqual(created.body, second);

    clock.advance(1000);
    const category = (
      await server.request('POST', '/v1/promotions/Summer/tiers', {
        body: { name: 'Categorised', action, category: 'Stacks' },
      })
    ).body.categories[0];
    const updated = await server.request('PUT', `/v1/promotions/Summer/stacks/${first.id as string}`, {
      body: { name: 'Trio', tiers: { ids: [tiers[3], tiers[2], tiers[1]] }, category_id: category.id },
    });
    first = {
      ...first,
      name: 'Trio',
      updated_at: at(),
      tiers: { ids: [tiers[3], tiers[2], tiers[1]], hierarchy_mode: 'MANUAL' },
      category_id: category.id,
      categories: [category],
    };
    assert.deepEqual(updated.body, first);
    assertMatchesReference('PUT', '/v1/promotions/{campaignId}/stacks/{stackId}', 200, withoutNulls(updated.body));
    assert.equal(
      (await server.request('DELETE', `/v1/promotions/tiers/${tiers[0] as string}`)).status,
      400,
      'still in the second stack',
    );

    const inCampaign = await server.request('GET', '/v1/promotions/Summer/stacks');
    assert.deepEqual(inCampaign.body, { object: 'list', data_ref: 'data', data: [first, second], total: 2 });
    assertMatchesReference('GET', '/v1/promotions/{campaignId}/stacks', 200, withoutNulls(inCampaign.body));

    const all = await server.request('GET', '/v1/promotions/stacks');
    assert.deepEqual(all.body, { object: 'list', data_ref: 'data', data: [second, first], total: 2 });
    assertMatchesReference('GET', '/v1/promotions/stacks', 200, withoutNulls(all.body));
    const names = async (query: string) =>
      (await server.request('GET', `/v1/promotions/stacks?${query}`)).body.data.map((s: { name: string }) => s.name);
    assert.deepEqual(await names('order=name'), ['All', 'Trio']);
    assert.deepEqual(await names('order=-updated_at'), ['Trio', 'All']);
    assert.deepEqual(await names('created_at[after]=2024-06-01T08:00:01.500Z'), ['All']);
    assert.deepEqual(await names('updated_at[before]=2030-01-01&limit=1&page=1'), ['Trio']);
    await refused(
      () => server.request('GET', '/v1/promotions/stacks?order=tiers&created_at[before]=soon&page=101'),
      invalidQueryError(
        'Query parameter page must be between 1 and 100; Query parameter created_at[before] must be an ISO 8601 date-time',
      ),
    );
  });

  it('deletes a stack, which frees its tiers', async () => {
    assert.equal((await server.request('DELETE', `/v1/promotions/Summer/stacks/${second.id as string}`)).status, 204);
    assert.equal((await server.request('GET', `/v1/promotions/Summer/stacks/${second.id as string}`)).status, 404);
    assert.equal((await server.request('DELETE', `/v1/promotions/tiers/${tiers[0] as string}`)).status, 204);
    assert.deepEqual((await server.request('GET', '/v1/promotions/stacks')).body, {
      object: 'list',
      data_ref: 'data',
      data: [first],
      total: 1,
    });
  });

  it("removing a deleted campaign's row removes its tiers and stacks with it", async () => {
    await removeCampaignRow(server.deps.db, summer);
    const count = (table: string) =>
      (sqliteOf(server.deps).prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.deepEqual([count('promotion_stacks'), count('promotion_stack_tiers'), count('promotion_tiers')], [0, 0, 1]);
    assert.equal(await findPromotionStack(server.deps.db, first.id as string), undefined);
  });
});
