import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import {
  expectError,
  invalidPayloadError,
  invalidQueryError,
  notFoundError,
  type ExpectedError,
} from '../support/error-bodies.js';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-01T08:00:00.000Z');
const at = () => clock.now().toISOString();
const amountOff = (amount_off: number) => ({ discount: { type: 'AMOUNT', amount_off, effect: 'APPLY_TO_ORDER' } });
const EMPTY_ASSIGNMENTS = { object: 'list', data_ref: 'data', data: [], total: 0 };

describe('promotion tiers API', () => {
  let server: TestServer;
  let campaign: { id: string; start_date: string | null; expiration_date: string | null };
  let first: string;
  let second: string;

  before(async () => {
    server = await startTestServer({ clock });
    const created = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Summer',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'Ten off', action: amountOff(1000) },
            { name: 'Twenty off', action: amountOff(2000), hierarchy: 5 },
          ],
        },
      },
    });
    campaign = { id: created.body.id, start_date: null, expiration_date: null };
    [first, second] = created.body.promotion.tiers.map((t: { id: string }) => t.id);
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Coupons') });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));

  /** A tier as every endpoint answers it (presentTier), with the fields that differ. */
  const tier = (id: string, fields: Record<string, unknown>) => ({
    id,
    created_at: '2024-06-01T08:00:00.000Z',
    name: 'Ten off',
    banner: null,
    action: amountOff(1000),
    metadata: {},
    hierarchy: 1,
    promotion_id: campaign.id,
    campaign: { ...campaign, active: true, object: 'campaign' },
    campaign_id: campaign.id,
    active: true,
    summary: { redemptions: { total_redeemed: 0 }, orders: { total_amount: 0, total_discount_amount: 0 } },
    object: 'promotion_tier',
    validation_rule_assignments: EMPTY_ASSIGNMENTS,
    categories: [],
    ...fields,
  });

  let added: Record<string, unknown>;

  it("adds a tier after the campaign's last, with a category by name, validity and metadata", async () => {
    clock.advance(1000);
    const res = await server.request('POST', `/v1/promotions/Summer/tiers`, {
      body: {
        name: 'Weekend',
        banner: 'Weekend deal',
        action: amountOff(500),
        metadata: { channel: 'web' },
        category: 'Weekends',
        start_date: '2024-06-01T00:00:00Z',
        expiration_date: '2099-01-01T00:00:00.000Z',
        validity_day_of_week: [0, 6],
        validation_rule_assignments: { object: 'list' },
      },
    });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^promo_[0-9A-Za-z]{16}$/);
    const category = res.body.categories[0];
    assert.deepEqual(category, {
      id: res.body.category_id,
      name: 'Weekends',
      hierarchy: 0,
      object: 'category',
      created_at: at(),
    });
    added = tier(res.body.id, {
      created_at: at(),
      name: 'Weekend',
      banner: 'Weekend deal',
      action: amountOff(500),
      metadata: { channel: 'web' },
      hierarchy: 6,
      start_date: '2024-06-01T00:00:00.000Z',
      expiration_date: '2099-01-01T00:00:00.000Z',
      validity_day_of_week: [0, 6],
      category_id: category.id,
      categories: [category],
    });
    assert.deepEqual(res.body, added);
    assertMatchesReference('POST', '/v1/promotions/{campaignId}/tiers', 200, withoutNulls(res.body));
  });

  it('refuses bad tiers, other campaigns and unknown ones, changing nothing', async () => {
    const post = (campaignKey: string, body: unknown) => () =>
      server.request('POST', `/v1/promotions/${campaignKey}/tiers`, { body });
    await refused(post('Summer', { banner: 'x' }), invalidPayloadError('name is a required field'));
    await refused(
      post('Summer', { name: 'Bad', action: { discount: { type: 'PERCENT' } } }),
      invalidPayloadError('action.discount.percent_off is a required field'),
    );
    await refused(
      post('Summer', { name: 'Bad', action: amountOff(1), start_date: '2024-06-02', expiration_date: '2024-06-01' }),
      invalidPayloadError('expiration_date must not be before start_date'),
    );
    await refused(
      post('Summer', { name: 'Bad', action: amountOff(1), category_id: 'cat_none' }),
      notFoundError('category', 'cat_none'),
    );
    await refused(post('Coupons', { name: 'Bad', action: amountOff(1) }), {
      code: 400,
      key: 'invalid_campaign',
      message: 'Invalid campaign',
      details: `Campaign ${(await server.request('GET', '/v1/campaigns/Coupons')).body.id} is not a PROMOTION campaign`,
    });
    await refused(post('Winter', { name: 'Bad', action: amountOff(1) }), notFoundError('campaign', 'Winter'));
    await refused(
      () => server.request('PUT', '/v1/promotions/tiers/promo_none', { body: { name: 'x' } }),
      notFoundError('promotion_tier', 'promo_none'),
    );
    await refused(
      () =>
        server.request('PUT', `/v1/promotions/tiers/${first}`, {
          body: { expiration_date: '2020-01-01', start_date: '2021-01-01', hierarchy: 0 },
        }),
      invalidPayloadError('hierarchy must be greater than or equal to 1'),
    );
    await refused(
      () =>
        server.request('PUT', `/v1/promotions/tiers/${first}`, {
          body: { expiration_date: '2020-01-01', start_date: '2021-01-01' },
        }),
      invalidPayloadError('expiration_date must not be before start_date'),
    );
    await refused(
      () => server.request('DELETE', '/v1/promotions/tiers/promo_none'),
      notFoundError('promotion_tier', 'promo_none'),
    );
    await refused(
      () => server.request('POST', '/v1/promotions/tiers/promo_none/enable'),
      notFoundError('promotion_tier', 'promo_none'),
    );
  });

  it("lists a campaign's tiers by hierarchy, and gets one", async () => {
    const res = await server.request('GET', '/v1/promotions/Summer/tiers');
    assert.equal(res.status, 200);
    const tiers = [tier(first, {}), tier(second, { name: 'Twenty off', action: amountOff(2000), hierarchy: 5 }), added];
    assert.deepEqual(res.body, { object: 'list', data_ref: 'tiers', tiers, total: 3, has_more: false });
    assertMatchesReference('GET', '/v1/promotions/{campaignId}/tiers', 200, withoutNulls(res.body));
    const got = await server.request('GET', `/v1/promotions/tiers/${second}`);
    assert.deepEqual(got.body, tiers[1]);
    assertMatchesReference('GET', '/v1/promotions/tiers/{promotionTierId}', 200, withoutNulls(got.body));
    assert.deepEqual(
      (await server.request('GET', `/v1/promotions/${campaign.id}/tiers`)).body,
      res.body,
      'by id as by name',
    );
  });

  it('updates the fields given, and enables and disables a tier', async () => {
    clock.advance(1000);
    const res = await server.request('PUT', `/v1/promotions/tiers/${first}`, {
      body: {
        name: 'Eleven off',
        action: amountOff(1100),
        metadata: { v: 2 },
        hierarchy: 2,
        category: null,
        validity_hours: null,
      },
    });
    assert.equal(res.status, 200);
    const updated = tier(first, {
      name: 'Eleven off',
      action: amountOff(1100),
      metadata: { v: 2 },
      hierarchy: 2,
      updated_at: at(),
    });
    assert.deepEqual(res.body, updated);
    assertMatchesReference('PUT', '/v1/promotions/tiers/{promotionTierId}', 200, withoutNulls(res.body));

    clock.advance(1000);
    const disabled = await server.request('POST', `/v1/promotions/tiers/${first}/disable`);
    assert.deepEqual(disabled.body, { ...updated, active: false, updated_at: at() });
    assertMatchesReference('POST', '/v1/promotions/tiers/{promotionTierId}/disable', 200, withoutNulls(disabled.body));
    clock.advance(1000);
    const enabled = await server.request('POST', `/v1/promotions/tiers/${first}/enable`);
    assert.deepEqual(enabled.body, { ...updated, active: true, updated_at: at() });
    assertMatchesReference('POST', '/v1/promotions/tiers/{promotionTierId}/enable', 200, withoutNulls(enabled.body));
  });

  it('lists every tier, newest first, with is_available, orders and pages, for server and client keys', async () => {
    await server.request('POST', `/v1/promotions/tiers/${second}/disable`);
    const future = await server.request('POST', '/v1/promotions/Summer/tiers', {
      body: { name: 'Later', action: amountOff(1), start_date: '2099-01-01' },
    });
    const ids = (res: TestResponse) => res.body.tiers.map((t: { id: string }) => t.id);

    const all = await server.request('GET', '/v1/promotions/tiers');
    assert.equal(all.status, 200);
    assert.deepEqual(ids(all), [future.body.id, added.id, second, first]);
    assert.deepEqual(
      { ...all.body, tiers: undefined },
      { object: 'list', data_ref: 'tiers', tiers: undefined, total: 4 },
    );
    assert.deepEqual(all.body.tiers[1], added);
    assertMatchesReference('GET', '/v1/promotions/tiers', 200, withoutNulls(all.body));

    const available = await server.request('GET', '/v1/promotions/tiers?is_available=true&order=created_at');
    assert.deepEqual(ids(available), [first, added.id]);
    assert.equal(available.body.total, 2);
    assert.deepEqual(
      ids(await server.request('GET', '/v1/promotions/tiers?is_available=false&order=-updated_at&limit=2&page=2')),
      [future.body.id, added.id],
      'never-updated ones last, ties newest first',
    );

    const client = await server.request('GET', '/client/v1/promotions/tiers?is_available=true', { auth: 'client' });
    assert.equal(client.status, 200);
    assert.deepEqual(client.body, { ...available.body, tiers: [...available.body.tiers].reverse() });
    assertMatchesReference('GET', '/client/v1/promotions/tiers', 200, withoutNulls(client.body));

    await refused(
      () => server.request('GET', '/v1/promotions/tiers?is_available=yes&limit=101&order=name'),
      invalidQueryError(
        'Query parameter is_available must be one of: true, false; Query parameter limit must be between 1 and 100',
      ),
    );
  });

  it('deletes a tier', async () => {
    const res = await server.request('DELETE', `/v1/promotions/tiers/${second}`);
    assert.equal(res.status, 204);
    assert.equal((await server.request('GET', `/v1/promotions/tiers/${second}`)).status, 404);
    assert.deepEqual((await server.request('GET', '/v1/promotions/Summer/tiers')).body.total, 3);
  });
});
