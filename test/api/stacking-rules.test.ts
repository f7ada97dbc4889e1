import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_STACKING_RULES } from '../../src/engine/stacking/index.js';
import { fixedClock } from '../../src/lib/clock.js';
import { getStackingRules } from '../../src/modules/stacking-rules/stacking-rules.service.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { expectError, invalidPayloadError, notFoundError, type ExpectedError } from '../support/error-bodies.js';
import { discountCampaign } from '../support/factories.js';
import { assertMatchesReference, assertMatchesSchema } from '../support/openapi.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-06-01T08:00:00.000Z');
const at = () => clock.now().toISOString();

describe('stacking rules settings', () => {
  let server: TestServer;
  let gold: string;
  let silver: string;

  before(async () => {
    server = await startTestServer({ clock });
    const categoryOf = async (name: string) =>
      (
        await server.request('POST', '/v1/campaigns', {
          body: discountCampaign(`${name} campaign`, { category: name }),
        })
      ).body.category_id as string;
    gold = await categoryOf('Gold');
    silver = await categoryOf('Silver');
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));
  const put = (body: unknown) => server.request('PUT', '/v1/stacking-rules', { body });
  const management = '/management/v1/projects/proj_any/stacking-rules';

  it('answers the reference defaults while none are stored, and getStackingRules gives the same', async () => {
    const res = await server.request('GET', '/v1/stacking-rules');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, DEFAULT_STACKING_RULES);
    assertMatchesSchema('StackingRules', res.body);
    assert.deepEqual(await getStackingRules(server.deps.db), DEFAULT_STACKING_RULES);
    assert.deepEqual((await server.request('GET', management)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
  });

  it('refuses values out of the reference ranges, crossed limits, overlapping and unknown categories, changing nothing', async () => {
    await refused(
      () => put({ applicable_redeemables_limit: 31, applicable_exclusive_redeemables_limit: 6, redeemables_limit: 0 }),
      invalidPayloadError(
        'applicable_exclusive_redeemables_limit must be from 1 to 5; applicable_redeemables_limit must be from 1 to 30; redeemables_limit must be from 1 to 30',
      ),
    );
    await refused(
      () => put({ redeemables_application_mode: 'SOME', exclusive_categories: 'x', applicable_redeemables_limit: '3' }),
      invalidPayloadError(
        'applicable_redeemables_limit must be an integer; exclusive_categories must be an array of category ids; redeemables_application_mode must be one of: ALL, PARTIAL',
      ),
    );
    await refused(
      () => put({ redeemables_limit: 3, applicable_exclusive_redeemables_per_category_limit: 2 }),
      invalidPayloadError(
        'applicable_redeemables_limit must be at most redeemables_limit; applicable_exclusive_redeemables_per_category_limit must be at most applicable_exclusive_redeemables_limit',
      ),
    );
    await refused(
      () => put({ exclusive_categories: [gold], joint_categories: [silver, gold] }),
      invalidPayloadError(`category ${gold} cannot be in both exclusive_categories and joint_categories`),
    );
    await refused(
      () => put({ no_effect_skip_categories: [silver], no_effect_redeem_anyway_categories: [silver] }),
      invalidPayloadError(
        `category ${silver} cannot be in both no_effect_skip_categories and no_effect_redeem_anyway_categories`,
      ),
    );
    await refused(
      () => put({ discount_calculation_mode: 'HALF', grouped_redeemables_sorting_rule: 'JOINT_FIRST' }),
      invalidPayloadError(
        'discount_calculation_mode must be one of: INITIAL_AMOUNT, DISCOUNTED_AMOUNT; grouped_redeemables_sorting_rule must be one of: JOINT_ALWAYS_LAST',
      ),
    );
    await refused(
      () => put({ initial_amount_mode_categories: [gold], discounted_amount_mode_categories: [gold] }),
      invalidPayloadError(
        `category ${gold} cannot be in both initial_amount_mode_categories and discounted_amount_mode_categories`,
      ),
    );
    await refused(
      () => put({ discounted_amount_mode_categories: ['cat_unknown'] }),
      notFoundError('category', 'cat_unknown'),
    );
    await refused(() => put({ joint_categories: [gold, 'cat_unknown'] }), notFoundError('category', 'cat_unknown'));
    await refused(
      () => put({ applicable_redeemables_category_limits: { [gold]: 11 } }),
      invalidPayloadError(`applicable_redeemables_category_limits.${gold} must be an integer from 1 to 10`),
    );
    await refused(
      () => put({ applicable_redeemables_category_limits: [2] }),
      invalidPayloadError('applicable_redeemables_category_limits must be an object'),
    );
    await refused(
      () => put({ applicable_redeemables_category_limits: { cat_unknown: 2 } }),
      notFoundError('category', 'cat_unknown'),
    );
    await refused(() => put([1]), invalidPayloadError('The body must be a JSON object'));
  });

  let stored: Record<string, unknown>;

  it('stores a change, keeping the fields not given, and the pipeline reads it', async () => {
    clock.advance(1000);
    const res = await put({
      applicable_redeemables_limit: 3,
      redeemables_application_mode: 'PARTIAL',
      exclusive_categories: [gold, gold],
      joint_categories: [silver],
      applicable_redeemables_category_limits: { [silver]: 2 },
      discount_calculation_mode: 'INITIAL_AMOUNT',
      initial_amount_mode_categories: [silver, silver],
      grouped_redeemables_sorting_rule: 'JOINT_ALWAYS_LAST',
      ignored: 1,
    });
    assert.equal(res.status, 200);
    stored = {
      ...DEFAULT_STACKING_RULES,
      applicable_redeemables_limit: 3,
      redeemables_application_mode: 'PARTIAL',
      exclusive_categories: [gold],
      joint_categories: [silver],
      applicable_redeemables_category_limits: { [silver]: 2 },
      discount_calculation_mode: 'INITIAL_AMOUNT',
      initial_amount_mode_categories: [silver],
    };
    assert.deepEqual(res.body, stored);
    assert.deepEqual((await server.request('GET', '/v1/stacking-rules')).body, stored);
    assert.deepEqual(await getStackingRules(server.deps.db), stored);
    const second = await put({ redeemables_sorting_rule: 'CATEGORY_HIERARCHY' });
    stored = { ...stored, redeemables_sorting_rule: 'CATEGORY_HIERARCHY' };
    assert.deepEqual(second.body, stored);
  });

  it('serves the stored rules through the management API, with any project id', async () => {
    const list = await server.request('GET', management);
    assert.equal(list.status, 200);
    const id = list.body.data[0].id as string;
    assert.match(id, /^stk_[0-9A-Za-z]{16}$/);
    const record = { id, ...stored, created_at: '2024-06-01T08:00:01.000Z', updated_at: at() };
    assert.deepEqual(list.body, { object: 'list', data_ref: 'data', data: [record], total: 1 });
    assertMatchesReference('GET', '/management/v1/projects/{projectId}/stacking-rules', 200, list.body);
    const got = await server.request('GET', `/management/v1/projects/other/stacking-rules/${id}`);
    assert.deepEqual(got.body, record);
    assertMatchesReference(
      'GET',
      '/management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}',
      200,
      got.body,
    );

    await refused(() => server.request('POST', management, { body: { applicable_redeemables_limit: 2 } }), {
      code: 409,
      key: 'stacking_rules_exist',
      message: 'Stacking rules already exist',
      details: `The project already has stacking rules ${id}`,
    });
    await refused(() => server.request('GET', `${management}/stk_other`), notFoundError('stacking_rules', 'stk_other'));

    clock.advance(1000);
    const updated = await server.request('PUT', `${management}/${id}`, { body: { applicable_redeemables_limit: 4 } });
    stored = { ...stored, applicable_redeemables_limit: 4 };
    assert.deepEqual(updated.body, { ...record, applicable_redeemables_limit: 4, updated_at: at() });
    assertMatchesReference(
      'PUT',
      '/management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}',
      200,
      updated.body,
    );

    const deleted = await server.request('DELETE', `${management}/${id}`);
    assert.equal(deleted.status, 204);
    assert.deepEqual((await server.request('GET', '/v1/stacking-rules')).body, DEFAULT_STACKING_RULES);

    const created = await server.request('POST', management, {
      body: { redeemables_no_effect_rule: 'SKIP', no_effect_skip_categories: [gold] },
    });
    assert.equal(created.status, 200);
    assert.notEqual(created.body.id, id);
    assert.deepEqual(created.body, {
      id: created.body.id,
      ...DEFAULT_STACKING_RULES,
      redeemables_no_effect_rule: 'SKIP',
      no_effect_skip_categories: [gold],
      created_at: at(),
      updated_at: null,
    });
    assertMatchesReference('POST', '/management/v1/projects/{projectId}/stacking-rules', 200, created.body);
  });

  it('opens the management API to server keys and api-scope tokens only', async () => {
    const res = await server.request('GET', management, { auth: 'none' });
    assert.equal(res.status, 401);
    assert.equal(res.body.key, 'unauthorized');
    assert.equal((await server.request('GET', '/v1/stacking-rules', { auth: 'client' })).status, 401);
    const token = async (scope: string) =>
      (
        await server.request('POST', '/v1/oauth/token', {
          raw: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })
      ).body.access_token as string;
    assert.equal((await server.request('GET', management, { auth: { bearer: await token('api') } })).status, 200);
    const narrow = await server.request('GET', management, { auth: { bearer: await token('vouchers') } });
    assert.deepEqual(
      { status: narrow.status, key: narrow.body.key },
      { status: 403, key: 'missing_required_permission' },
    );
  });
});
