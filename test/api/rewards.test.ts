import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { claimRewardStock } from '../../src/modules/rewards/rewards.service.js';
import { dbFingerprint } from '../support/db.js';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { assertMatchesReference } from '../support/openapi.js';
import {
  expectError,
  invalidPayloadError,
  invalidQueryError,
  notFoundError,
  type ExpectedError,
} from '../support/error-bodies.js';
import { notFoundBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const clock = fixedClock('2024-05-01T08:00:00.000Z');
const at = () => clock.now().toISOString();

describe('rewards API', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer({ clock });
    const create = async (body: unknown) => (await server.request('POST', '/v1/campaigns', { body })).body.id as string;
    ids.discount = await create(discountCampaign('Ten off'));
    ids.gift = await create({
      name: 'Gifts',
      campaign_type: 'GIFT_VOUCHERS',
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } },
    });
    ids.loyalty = await create(loyaltyCampaign('Club'));
    ids.promotion = await create({
      name: 'Promo',
      campaign_type: 'PROMOTION',
      promotion: { tiers: [{ name: 'T', action: { discount: { type: 'AMOUNT', amount_off: 5 } } }] },
    });
    ids.product = (
      await server.request('POST', '/v1/products', { body: { source_id: 'comic', name: 'Comic' } })
    ).body.id;
    ids.sku = (
      await server.request('POST', '/v1/products/comic/skus', { body: { source_id: 'comic-1', sku: 'Vol 1' } })
    ).body.id;
    ids.otherProduct = (
      await server.request('POST', '/v1/products', { body: { source_id: 'mug', name: 'Mug' } })
    ).body.id;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const post = (body: unknown) => {
    clock.advance(1000);
    return server.request('POST', '/v1/rewards', { body });
  };

  const refused = (send: () => Promise<TestResponse>, expected: ExpectedError) =>
    assertRefused(server, send, expectError(expected));
  const invalid = invalidPayloadError;
  const missing = notFoundError;

  const reward = (id: string, fields: Record<string, unknown>) => ({
    id,
    stock: null,
    redeemed: null,
    attributes: {},
    created_at: at(),
    updated_at: null,
    metadata: null,
    object: 'reward',
    ...fields,
  });

  it('creates each type of reward, answering it whole as the reference does', async () => {
    const gift = await post({
      name: 'Get $10',
      type: 'CAMPAIGN',
      parameters: { campaign: { id: 'Gifts', balance: 1000 } },
      metadata: { Type: 'Gift' },
    });
    assert.equal(gift.status, 200);
    assert.match(gift.body.id, /^rew_[0-9A-Za-z]{16}$/);
    assert.deepEqual(
      gift.body,
      reward(gift.body.id, {
        name: 'Get $10',
        type: 'CAMPAIGN',
        parameters: { campaign: { id: ids.gift, balance: 1000, type: 'GIFT_VOUCHERS' } },
        metadata: { Type: 'Gift' },
      }),
    );
    assertMatchesReference('POST', '/v1/rewards', 200, gift.body);

    const points = await post({ name: '100 points', parameters: { campaign: { id: ids.loyalty, balance: 100 } } });
    assert.deepEqual(
      points.body,
      reward(points.body.id, {
        name: '100 points',
        type: 'CAMPAIGN',
        parameters: { campaign: { id: ids.loyalty, balance: 100, type: 'LOYALTY_PROGRAM' } },
      }),
    );

    const discount = await post({ name: '10% off', parameters: { campaign: { id: 'Ten off' } } });
    assert.deepEqual(
      discount.body,
      reward(discount.body.id, {
        name: '10% off',
        type: 'CAMPAIGN',
        parameters: { campaign: { id: ids.discount, type: 'DISCOUNT_COUPONS' } },
      }),
    );

    const material = await post({
      name: 'Get a Comic Book',
      type: 'MATERIAL',
      parameters: { product: { id: 'comic', sku_id: 'comic-1' } },
      stock: 2,
      attributes: { image_url: 'https://img.example/comic.png', description: "Archie's Series" },
    });
    assert.deepEqual(
      material.body,
      reward(material.body.id, {
        name: 'Get a Comic Book',
        type: 'MATERIAL',
        parameters: { product: { id: ids.product, sku_id: ids.sku } },
        stock: 2,
        attributes: { image_url: 'https://img.example/comic.png', description: "Archie's Series" },
      }),
    );
    assertMatchesReference('POST', '/v1/rewards', 200, material.body);

    const productOnly = await post({ name: 'A mug', parameters: { product: { id: ids.otherProduct } } });
    assert.deepEqual(
      productOnly.body,
      reward(productOnly.body.id, {
        name: 'A mug',
        type: 'MATERIAL',
        parameters: { product: { id: ids.otherProduct, sku_id: null } },
      }),
    );

    const coin = await post({ name: '1 point = $0.01', type: 'COIN', parameters: { coin: { exchange_ratio: 0.01 } } });
    assert.deepEqual(
      coin.body,
      reward(coin.body.id, {
        name: '1 point = $0.01',
        type: 'COIN',
        parameters: { coin: { exchange_ratio: 0.01, points_ratio: 1 } },
      }),
    );
    const coin2 = await post({
      name: '8000 points = $9',
      parameters: { coin: { exchange_ratio: 900, points_ratio: 8000 } },
    });
    assert.deepEqual(coin2.body.parameters, { coin: { exchange_ratio: 900, points_ratio: 8000 } });

    for (const created of [gift, points, discount, material, productOnly, coin, coin2]) {
      const got = await server.request('GET', `/v1/rewards/${created.body.id}`);
      assert.deepEqual(got.body, created.body);
      assertMatchesReference('GET', '/v1/rewards/{rewardId}', 200, got.body);
    }
  });

  it('refuses rewards that cannot be given, writing nothing', async () => {
    await refused(
      () => post({ name: 'x', parameters: { campaign: { id: 'Gifts' } } }),
      invalid('parameters.campaign.balance is required for a GIFT_VOUCHERS campaign'),
    );
    await refused(
      () => post({ name: 'x', parameters: { campaign: { id: 'Club' } } }),
      invalid('parameters.campaign.balance is required for a LOYALTY_PROGRAM campaign'),
    );
    await refused(
      () => post({ name: 'x', parameters: { campaign: { id: 'Ten off', balance: 5 } } }),
      invalid('parameters.campaign.balance applies only to gift and loyalty campaigns'),
    );
    await refused(
      () => post({ name: 'x', parameters: { campaign: { id: 'Promo' } } }),
      invalid('parameters.campaign.id must name a discount, gift or loyalty campaign; Promo is a PROMOTION campaign'),
    );
    await refused(
      () => post({ name: 'x', parameters: { campaign: { id: 'camp_none' } } }),
      missing('campaign', 'camp_none'),
    );
    await refused(
      () => post({ name: 'x', parameters: { product: { id: 'prod_none' } } }),
      missing('product', 'prod_none'),
    );
    await refused(
      () => post({ name: 'x', parameters: { product: { id: 'comic', sku_id: 'sku_none' } } }),
      missing('sku', 'sku_none'),
    );
    await refused(
      () => post({ name: 'x', parameters: { product: { id: 'mug', sku_id: 'comic-1' } } }),
      invalid('parameters.product.sku_id comic-1 is not a SKU of product mug'),
    );
    await refused(
      () => post({ name: 'x', type: 'COIN', parameters: { campaign: { id: 'Ten off' } } }),
      invalid('type COIN does not match parameters.campaign (a CAMPAIGN reward)'),
    );
    await refused(
      () => post({ name: 'x', parameters: { coin: { exchange_ratio: 1 }, product: { id: 'mug' } } }),
      invalid('parameters must hold exactly one of campaign, product or coin'),
    );
    await refused(
      () =>
        post({
          name: '',
          type: 'GIFT',
          parameters: { coin: { exchange_ratio: 0, points_ratio: 1.5 } },
          stock: -1,
          metadata: [],
        }),
      invalid(
        'name must not be empty; type must be one of: CAMPAIGN, MATERIAL, COIN; parameters.coin.exchange_ratio must be a number above 0; ' +
          'parameters.coin.points_ratio must be an integer of at least 1; stock must be an integer of at least 0; metadata must be an object',
      ),
    );
    await refused(() => post({}), invalid('name is required; parameters is required'));
    await refused(() => post([]), invalid('The body must be a JSON object'));
  });

  it('lists rewards in creation order with total, and by assignment id', async () => {
    const all = await server.request('GET', '/v1/rewards?limit=100');
    assert.equal(all.status, 200);
    assertMatchesReference('GET', '/v1/rewards', 200, all.body);
    const total = all.body.total as number;
    assert.equal(all.body.data.length, total);
    const page2 = await server.request('GET', '/v1/rewards?limit=2&page=2');
    assert.deepEqual(page2.body, { object: 'list', data_ref: 'data', data: all.body.data.slice(2, 4), total });
    const beyond = await server.request('GET', '/v1/rewards?limit=100&page=2');
    assert.deepEqual(beyond.body, { object: 'list', data_ref: 'data', data: [], total });
    const bad = await server.request('GET', '/v1/rewards?limit=0&page=101');
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body,
      expectError(
        invalidQueryError(
          'Query parameter limit must be between 1 and 100; Query parameter page must be between 1 and 100',
        ),
      )(bad),
    );

    const first = all.body.data[0];
    const [assignment] = (
      await server.request('POST', '/v1/loyalties/Club/rewards', {
        body: [{ reward: first.id, parameters: { loyalty: { points: 10 } } }],
      })
    ).body;
    const byAssignment = await server.request('GET', `/v1/rewards?assignment_id=${assignment.id}`);
    assert.deepEqual(byAssignment.body, { object: 'list', data_ref: 'data', data: [first], total: 1 });
    const none = await server.request('GET', '/v1/rewards?assignment_id=rewa_none');
    assert.deepEqual(none.body, { object: 'list', data_ref: 'data', data: [], total: 0 });
  });

  it('updates the fields given; the type stays, the stock never drops below what was redeemed', async () => {
    const created = (
      await post({ name: 'Tote bag', parameters: { product: { id: 'mug' } }, stock: 5, metadata: { a: 1 } })
    ).body;
    clock.advance(1000);
    const res = await server.request('PUT', `/v1/rewards/${created.id}`, {
      body: {
        name: 'Tote',
        parameters: { product: { id: 'comic', sku_id: 'comic-1' } },
        stock: 3,
        attributes: { description: 'Blue' },
        metadata: { b: 2 },
      },
    });
    assert.equal(res.status, 200);
    const updated = {
      ...created,
      name: 'Tote',
      parameters: { product: { id: ids.product, sku_id: ids.sku } },
      stock: 3,
      attributes: { description: 'Blue' },
      metadata: { b: 2 },
      updated_at: at(),
    };
    assert.deepEqual(res.body, updated);
    assertMatchesReference('PUT', '/v1/rewards/{rewardId}', 200, res.body);

    await server.deps.db.transaction().execute((trx) => claimRewardStock(server.deps, trx, created.id));
    await server.deps.db.transaction().execute((trx) => claimRewardStock(server.deps, trx, created.id));
    const put = (body: unknown) => () => server.request('PUT', `/v1/rewards/${created.id}`, { body });
    await refused(put({ stock: 1 }), invalid('stock must be at least the 2 already redeemed'));
    await refused(
      put({ parameters: { coin: { exchange_ratio: 1 } } }),
      invalid("parameters must keep the reward's type: it is a MATERIAL reward"),
    );
    await refused(put({ type: 'COIN' }), invalid('type cannot change: the reward is a MATERIAL reward'));
    await refused(
      () => server.request('PUT', '/v1/rewards/rew_none', { body: { name: 'x' } }),
      missing('reward', 'rew_none'),
    );

    clock.advance(1000);
    const unlimited = await server.request('PUT', `/v1/rewards/${created.id}`, { body: { stock: null } });
    assert.deepEqual(unlimited.body, { ...updated, stock: null, redeemed: 2, updated_at: at() });
  });

  it('claims stock one unit at a time and refuses the one past it, changing nothing', async () => {
    const created = (await post({ name: 'Poster', parameters: { product: { id: 'mug' } }, stock: 1 })).body;
    const claimed = await server.deps.db.transaction().execute((trx) => claimRewardStock(server.deps, trx, created.id));
    assert.deepEqual(claimed, { ...created, redeemed: 1 });
    const before = dbFingerprint(sqliteOf(server.deps));
    await assert.rejects(
      server.deps.db.transaction().execute((trx) => claimRewardStock(server.deps, trx, created.id)),
      (error: { key: string; details: string }) =>
        error.key === 'reward_out_of_stock' && error.details === `Reward ${created.id} has no stock left`,
    );
    await assert.rejects(
      server.deps.db.transaction().execute((trx) => claimRewardStock(server.deps, trx, 'rew_none')),
      (error: { key: string }) => error.key === 'not_found',
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('deletes a reward with its assignments', async () => {
    const created = (await post({ name: 'Short-lived', parameters: { coin: { exchange_ratio: 2 } } })).body;
    const [assignment] = (
      await server.request('POST', '/v1/loyalties/Club/rewards', { body: [{ reward: created.id }] })
    ).body;
    const res = await server.request('DELETE', `/v1/rewards/${created.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    const gone = await server.request('GET', `/v1/rewards/${created.id}`);
    assert.deepEqual(gone.body, notFoundBody(gone, 'reward', created.id));
    const assignmentGone = await server.request('GET', `/v1/loyalties/Club/rewards/${assignment.id}`);
    assert.deepEqual(assignmentGone.body, notFoundBody(assignmentGone, 'reward_assignment', assignment.id));
    await refused(() => server.request('DELETE', `/v1/rewards/${created.id}`), missing('reward', created.id));
  });
});
