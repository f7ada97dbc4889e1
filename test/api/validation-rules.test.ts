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
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { assertMatchesReference } from '../support/openapi.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const clock = fixedClock('2024-05-01T08:00:00.000Z');
const at = () => clock.now().toISOString();
const ONE = '/v1/validation-rules/{validationRuleId}';
const ASSIGNMENTS = '/v1/validation-rules/{validationRuleId}/assignments';

const AMOUNT_RULES = { '1': { name: 'order.amount', conditions: { $more_than: [10000] } }, logic: '1' };
const answeredAmountRules = {
  '1': { name: 'order.amount', property: null, conditions: { $more_than: [10000] }, rules: {} },
  logic: '1',
};
const NO_APPLICABLE = { excluded: [], included: [], included_all: false };

describe('validation rules API', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer({ clock });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await server.request(method, path, { body });
      assert.ok(res.status < 300, `${method} ${path}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    ids.campaign = (await call('POST', '/v1/campaigns', discountCampaign('Ten off'))).id;
    ids.voucher = (await call('POST', '/v1/vouchers/RULED', { discount: { type: 'PERCENT', percent_off: 5 } })).id;
    const promo = await call('POST', '/v1/campaigns', {
      name: 'Promo',
      campaign_type: 'PROMOTION',
      promotion: { tiers: [{ name: 'T', action: { discount: { type: 'AMOUNT', amount_off: 5 } } }] },
    });
    ids.tier = promo.promotion.tiers[0].id;
    ids.program = (await call('POST', '/v1/campaigns', loyaltyCampaign('Club'))).id;
    ids.earningRule = (
      await call('POST', '/v1/loyalties/Club/earning-rules', [
        { event: 'order.paid', loyalty: { type: 'FIXED', points: 5 } },
      ])
    )[0].id;
    const reward = await call('POST', '/v1/rewards', { name: 'Ten off', parameters: { campaign: { id: 'Ten off' } } });
    ids.rewardAssignment = (
      await call('POST', `/v1/rewards/${reward.id}/assignments`, {
        campaign: 'Club',
        parameters: { loyalty: { points: 100 } },
      })
    ).id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));
  const post = (body: unknown) => {
    clock.advance(1000);
    return server.request('POST', '/v1/validation-rules', { body });
  };
  /** A rule as reads answer it: no updated_at before an update, no assignments_count before an assignment. */
  const rule = (id: string, fields: Record<string, unknown>) => ({
    id,
    name: 'Spend 100',
    rules: answeredAmountRules,
    applicable_to: NO_APPLICABLE,
    created_at: at(),
    type: 'expression',
    context_type: 'global',
    object: 'validation_rules',
    ...fields,
  });
  /** A rule as POST answers it: as given, nulls for what was not given, nothing counted yet. */
  const created = (id: string, fields: Record<string, unknown>) =>
    rule(id, { applicable_to: null, updated_at: null, assignments_count: null, ...fields });

  it('creates a rule and answers it whole, as the reference does', async () => {
    const res = await post({ name: 'Spend 100', rules: AMOUNT_RULES, error: { message: 'Spend over 100' } });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^val_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, created(res.body.id, { error: { message: 'Spend over 100' } }));
    assertMatchesReference('POST', '/v1/validation-rules', 200, res.body);
    ids.amount = res.body.id;
    ids.amountCreated = res.body.created_at;

    const got = await server.request('GET', `/v1/validation-rules/${ids.amount}`);
    assert.deepEqual(got.body, rule(res.body.id, { error: { message: 'Spend over 100' } }));
    assertMatchesReference('GET', ONE, 200, got.body);
  });

  it('keeps applicable_to, type and context_type, with item conditions and logic', async () => {
    const body = {
      name: 'Mugs',
      type: 'advanced',
      context_type: 'voucher.discount_voucher.discount.apply_to_items',
      rules: {
        '1': {
          name: 'order.items.any',
          conditions: { $is: [{ object: 'products_collection', id: 'pc_mugs' }] },
          rules: { '1': { name: 'order.items.quantity', conditions: { $more_than_or_equal: [2] } } },
        },
        '2': {
          name: 'customer.metadata',
          property: 'tier',
          conditions: { $in: ['gold', 'silver'] },
          error: { message: 'Members only' },
        },
        logic: '1 or 2',
      },
      applicable_to: {
        included_all: false,
        included: [{ object: 'products_collection', id: 'pc_mugs', effect: 'APPLY_TO_CHEAPEST', quantity_limit: 1 }],
        excluded: [{ object: 'sku', id: 'sku_chipped' }],
      },
    };
    const res = await post(body);
    assert.deepEqual(res.body, {
      ...created(res.body.id, {
        name: 'Mugs',
        type: 'advanced',
        context_type: 'voucher.discount_voucher.discount.apply_to_items',
      }),
      rules: {
        '1': {
          name: 'order.items.any',
          property: null,
          conditions: { $is: [{ object: 'products_collection', id: 'pc_mugs' }] },
          rules: {
            '1': { name: 'order.items.quantity', property: null, conditions: { $more_than_or_equal: [2] }, rules: {} },
            logic: '1',
          },
        },
        '2': {
          name: 'customer.metadata',
          property: 'tier',
          conditions: { $in: ['gold', 'silver'] },
          error: { message: 'Members only' },
          rules: {},
        },
        logic: '1 or 2',
      },
      applicable_to: {
        excluded: [{ object: 'sku', id: 'sku_chipped', effect: 'APPLY_TO_EVERY' }],
        included: [
          {
            object: 'products_collection',
            id: 'pc_mugs',
            effect: 'APPLY_TO_CHEAPEST',
            quantity_limit: 1,
            strict: false,
          },
        ],
        included_all: false,
      },
    });
    assertMatchesReference('POST', '/v1/validation-rules', 200, res.body);
    ids.mugs = res.body.id;
  });

  it('refuses bad rules, naming every problem, and writes nothing', async () => {
    const send = (body: unknown) => () => server.request('POST', '/v1/validation-rules', { body });
    await refused(send({ rules: AMOUNT_RULES }), invalidPayloadError('name is required'));
    await refused(
      send({
        name: 'x',
        rules: {
          '1': { name: 'product.id', conditions: { $is: ['prod_1'] } },
          '2': { name: 'order.amount', conditions: { $more_than: ['10'] } },
          logic: '1 and 3',
        },
      }),
      invalidPayloadError(
        'rules.logic names condition 3, which the rules do not define; rules.1.name "product.id" is not supported; supported: customer.metadata, customer.segment, redemption.count.per_customer, order.amount, order.metadata, order.items.count, order.items.price_any, order.items.price_each, customer_segment, order.items.every, order.items.any, order.items.none; rules.2.order.amount.conditions.$more_than must be an array of exactly one number',
      ),
    );
    await refused(
      send({ name: 'x', type: 'simple', applicable_to: { included: [{ object: 'category', id: 'c' }] } }),
      invalidPayloadError(
        'applicable_to.included.0 must be {"object": "product" | "sku" | "products_collection", "id": <non-empty id>, ...}; type must be one of: expression, basic, advanced, complex',
      ),
    );
    await refused(send([]), invalidPayloadError('The body must be a JSON object'));
  });

  it('updates the fields given and 404s an unknown rule', async () => {
    clock.advance(1000);
    const res = await server.request('PUT', `/v1/validation-rules/${ids.amount}`, {
      body: {
        name: 'Spend 50',
        rules: { '1': { name: 'order.amount', conditions: { $more_than: [5000] } } },
        error: null,
      },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      ...rule(ids.amount as string, { name: 'Spend 50', updated_at: at(), created_at: ids.amountCreated }),
      rules: {
        '1': { name: 'order.amount', property: null, conditions: { $more_than: [5000] }, rules: {} },
        logic: '1',
      },
    });
    assertMatchesReference('PUT', ONE, 200, res.body);
    await refused(
      () => server.request('PUT', '/v1/validation-rules/val_none', { body: { name: 'x' } }),
      notFoundError('validation_rules', 'val_none'),
    );
    await refused(
      () => server.request('GET', '/v1/validation-rules/val_none'),
      notFoundError('validation_rules', 'val_none'),
    );
  });

  it('assigns a rule to each kind of object, and answers it on the voucher', async () => {
    const assign = (body: unknown) => {
      clock.advance(1000);
      return server.request('POST', `/v1/validation-rules/${ids.amount}/assignments`, { body });
    };
    const targets: Array<[string, string, unknown]> = [
      ['voucher', ids.voucher as string, { related_object_type: 'voucher', related_object_id: 'RULED' }],
      ['campaign', ids.campaign as string, { campaign: 'Ten off' }],
      ['promotion_tier', ids.tier as string, { related_object_type: 'promotion_tier', related_object_id: ids.tier }],
      [
        'earning_rule',
        ids.earningRule as string,
        { related_object_type: 'earning_rule', related_object_id: ids.earningRule },
      ],
      [
        'reward_assignment',
        ids.rewardAssignment as string,
        { related_object_type: 'reward_assignment', related_object_id: ids.rewardAssignment },
      ],
    ];
    const made: Array<Record<string, unknown>> = [];
    for (const [type, id, body] of targets) {
      const res = await assign(body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.id, /^asgm_[0-9A-Za-z]{16}$/);
      assert.deepEqual(res.body, {
        id: res.body.id,
        rule_id: ids.amount,
        related_object_id: id,
        related_object_type: type,
        created_at: at(),
        object: 'validation_rules_assignment',
      });
      assertMatchesReference('POST', ASSIGNMENTS, 200, res.body);
      made.push(res.body);
    }
    ids.voucherAssignment = made[0]?.id as string;

    const voucher = await server.request('GET', '/v1/vouchers/RULED');
    assert.deepEqual(voucher.body.validation_rules_assignments, {
      object: 'list',
      data_ref: 'data',
      data: [made[0]],
      total: 1,
    });
    const listed = await server.request('GET', '/v1/vouchers?limit=100');
    const inList = listed.body.vouchers.find((v: { code: string }) => v.code === 'RULED');
    assert.deepEqual(inList.validation_rules_assignments, {
      object: 'list',
      data_ref: 'data',
      data: [made[0]],
      total: 1,
    });

    const list = await server.request('GET', `/v1/validation-rules/${ids.amount}/assignments`);
    assert.deepEqual(list.body, { object: 'list', data_ref: 'data', data: made, total: 5 });
    assertMatchesReference('GET', ASSIGNMENTS, 200, list.body);
    const newest = await server.request(
      'GET',
      `/v1/validation-rules-assignments?related_object_id=${ids.tier}&order=-created_at`,
    );
    assert.deepEqual(newest.body, { object: 'list', data_ref: 'data', data: [made[2]], total: 1 });
    assertMatchesReference('GET', '/v1/validation-rules-assignments', 200, newest.body);
    assert.equal((await server.request('GET', `/v1/validation-rules/${ids.amount}`)).body.assignments_count, 5);

    const campaign = await server.request('GET', '/v1/campaigns/Ten off');
    assert.deepEqual(campaign.body.validation_rules_assignments, {
      object: 'list',
      data_ref: 'data',
      data: [made[1]],
      total: 1,
    });
    const promo = await server.request('GET', '/v1/campaigns/Promo');
    assert.deepEqual(promo.body.promotion.tiers[0].validation_rule_assignments, {
      object: 'list',
      data_ref: 'data',
      data: [made[2]],
      total: 1,
    });
  });

  it('assigns the rules named in a new voucher, campaign or reward assignment, in the same transaction', async () => {
    clock.advance(1000);
    const voucher = await server.request('POST', '/v1/vouchers/NEWRULED', {
      body: { discount: { type: 'PERCENT', percent_off: 5 }, validation_rules: [ids.mugs] },
    });
    assert.equal(voucher.status, 200, JSON.stringify(voucher.body));
    const [assigned] = voucher.body.validation_rules_assignments.data;
    assert.deepEqual(voucher.body.validation_rules_assignments, {
      object: 'list',
      data_ref: 'data',
      data: [
        {
          id: assigned.id,
          rule_id: ids.mugs,
          related_object_id: voucher.body.id,
          related_object_type: 'voucher',
          created_at: at(),
          object: 'validation_rules_assignment',
        },
      ],
      total: 1,
    });
    const campaign = await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Ruled', { validation_rules: [ids.mugs] }),
    });
    assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
    assert.equal(campaign.body.validation_rules_assignments.data[0].rule_id, ids.mugs);
    assert.equal(campaign.body.validation_rules_assignments.data[0].related_object_type, 'campaign');

    const reward = await server.request('POST', '/v1/rewards', {
      body: { name: 'Coin', parameters: { coin: { exchange_ratio: 1 } } },
    });
    const coin = await server.request('POST', '/v1/loyalties/Club/rewards', {
      body: [{ reward: reward.body.id, validation_rules: [ids.mugs] }],
    });
    assert.equal(coin.status, 200, JSON.stringify(coin.body));
    const ofCoin = await server.request('GET', `/v1/validation-rules-assignments?related_object_id=${coin.body[0].id}`);
    assert.deepEqual(
      ofCoin.body.data.map((a: Record<string, unknown>) => [a.rule_id, a.related_object_type]),
      [[ids.mugs, 'reward_assignment']],
    );

    await refused(
      () =>
        server.request('POST', '/v1/vouchers/NORULE', {
          body: { discount: { type: 'PERCENT', percent_off: 5 }, validation_rules: ['val_none'] },
        }),
      notFoundError('validation_rules', 'val_none'),
    );
    await refused(
      () =>
        server.request('POST', '/v1/campaigns', {
          body: discountCampaign('Two rules', { validation_rules: [ids.mugs, ids.amount] }),
        }),
      invalidPayloadError('validation_rules must hold at most 1 validation rule id'),
    );
    // Deleting the voucher forgets its assignment.
    assert.equal((await server.request('DELETE', '/v1/vouchers/NEWRULED')).status, 204);
    assert.equal(
      (await server.request('GET', `/v1/validation-rules-assignments?related_object_id=${voucher.body.id}`)).body.total,
      0,
    );
  });

  it('refuses a second assignment to the same object unless forced, and unknown objects', async () => {
    const path = `/v1/validation-rules/${ids.amount}/assignments`;
    await refused(() => server.request('POST', path, { body: { voucher: 'RULED' } }), {
      code: 409,
      key: 'duplicate_found',
      message: 'Duplicated resource found',
      details: `Duplicated validation_rules_assignment exists with related_object_id ${ids.voucher}`,
      resource_type: 'validation_rules_assignment',
    });
    for (const [type, id] of [
      ['voucher', 'NOPE'],
      ['campaign', 'camp_none'],
      ['promotion_tier', 'promo_none'],
      ['earning_rule', 'ern_none'],
      ['reward_assignment', 'rewa_none'],
    ]) {
      await refused(
        () => server.request('POST', path, { body: { related_object_type: type, related_object_id: id } }),
        notFoundError(type as string, id as string),
      );
    }
    await refused(
      () => server.request('POST', '/v1/validation-rules/val_none/assignments', { body: { voucher: 'RULED' } }),
      notFoundError('validation_rules', 'val_none'),
    );
    await refused(
      () => server.request('POST', path, { body: { related_object_type: 'distribution', related_object_id: 'x' } }),
      invalidPayloadError(
        'related_object_type must be one of: voucher, campaign, promotion_tier, earning_rule, reward_assignment',
      ),
    );
    await refused(
      () => server.request('POST', path, { body: {} }),
      invalidPayloadError('related_object_id is required (or one of voucher, campaign, promotion_tier)'),
    );

    clock.advance(1000);
    const forced = await server.request('POST', `${path}?force=true`, { body: { voucher: ids.voucher } });
    assert.equal(forced.status, 200);
    assert.notEqual(forced.body.id, ids.voucherAssignment);
    assert.equal(
      (await server.request('GET', `/v1/validation-rules-assignments?related_object_id=${ids.voucher}`)).body.total,
      1,
    );
    ids.voucherAssignment = forced.body.id;
  });

  it('lists rules in each order, with total, and refuses bad queries', async () => {
    const names = async (query: string) =>
      (await server.request('GET', `/v1/validation-rules${query}`)).body.data.map((r: { name: string }) => r.name);
    assert.deepEqual(await names(''), ['Spend 50', 'Mugs']);
    assert.deepEqual(await names('?order=-created_at'), ['Mugs', 'Spend 50']);
    assert.deepEqual(await names('?order=name'), ['Mugs', 'Spend 50']);
    assert.deepEqual(await names('?order=-updated_at&limit=1'), ['Spend 50']);
    assert.deepEqual(await names('?start_date=2024-05-01T08:00:01.500Z'), ['Mugs']);
    const all = await server.request('GET', '/v1/validation-rules');
    assert.equal(all.body.total, 2);
    assertMatchesReference('GET', '/v1/validation-rules', 200, all.body);
    await refused(
      () => server.request('GET', '/v1/validation-rules?order=id&limit=0'),
      invalidQueryError('Query parameter limit must be between 1 and 100'),
    );
  });

  it('forgets the assignments of a deleted earning rule or reward assignment', async () => {
    const count = async (id: string) =>
      (await server.request('GET', `/v1/validation-rules-assignments?related_object_id=${id}`)).body.total;
    assert.equal(await count(ids.earningRule as string), 1);
    assert.equal((await server.request('DELETE', `/v1/loyalties/Club/earning-rules/${ids.earningRule}`)).status, 204);
    assert.equal(await count(ids.earningRule as string), 0);
    assert.equal(await count(ids.rewardAssignment as string), 1);
    assert.equal((await server.request('DELETE', `/v1/loyalties/Club/rewards/${ids.rewardAssignment}`)).status, 204);
    assert.equal(await count(ids.rewardAssignment as string), 0);
  });

  it('deletes an assignment, then a rule with its assignments', async () => {
    await refused(
      () => server.request('DELETE', `/v1/validation-rules/${ids.amount}/assignments/asgm_none`),
      notFoundError('validation_rules_assignment', 'asgm_none'),
    );
    const gone = await server.request(
      'DELETE',
      `/v1/validation-rules/${ids.amount}/assignments/${ids.voucherAssignment}`,
    );
    assert.equal(gone.status, 204);
    assert.equal((await server.request('GET', '/v1/vouchers/RULED')).body.validation_rules_assignments.total, 0);
    assert.equal((await server.request('DELETE', `/v1/validation-rules/${ids.amount}`)).status, 204);
    assert.deepEqual((await server.request('GET', `/v1/validation-rules/${ids.amount}/assignments`)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
    assert.deepEqual((await server.request('GET', `/v1/validation-rules-assignments?rule=${ids.amount}`)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
    // The other rule's assignments (the Ruled campaign's, the coin reward's) stay.
    assert.equal((await server.request('GET', '/v1/validation-rules-assignments')).body.total, 2);
    await refused(
      () => server.request('DELETE', `/v1/validation-rules/${ids.amount}`),
      notFoundError('validation_rules', ids.amount as string),
    );
  });
});
