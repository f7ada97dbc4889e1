import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { alternately, twoProcesses, type Answer } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'uniqueness-race-app', PROMO_APP_TOKEN: 'uniqueness-race-token' };
const RACERS = 20;

/**
 * Uniqueness rules under concurrent requests through two `promo serve` processes on one file
 * (this test server and a spawned one), requests alternating between them and all sent at
 * once: a name or source_id is taken by exactly one row, the creates that lose are refused
 * with the whole 409 body, and the upserts that lose answer the winner's row, written once.
 */
describe('uniqueness rules across two processes', () => {
  const pair = twoProcesses(ENV);

  /** `RACERS` copies of one request, half to each process, all at once. */
  const race = (method: string, path: string, body: (i: number) => unknown): Promise<Answer[]> =>
    Promise.all(Array.from({ length: RACERS }, (_, i) => alternately(pair, i, method, path, body(i))));
  const one = <T>(sql: string, ...params: unknown[]): T =>
    sqliteOf(pair.server.deps)
      .prepare(sql)
      .get(...params) as T;

  /** Exactly one 200; every other answer is the whole 409 body given (its request id aside). */
  function oneWinner(answers: Answer[], refusal: Record<string, unknown>): Answer {
    const won = answers.filter((a) => a.status === 200);
    assert.equal(won.length, 1, JSON.stringify(answers.map((a) => a.status)));
    for (const lost of answers.filter((a) => a.status !== 200)) {
      const { request_id: requestId, ...rest } = lost.body;
      assert.match(requestId, /\S/);
      assert.deepEqual(rest, { code: 409, key: 'duplicate_found', message: 'Duplicated resource found', ...refusal });
    }
    return won[0] as Answer;
  }

  it('gives a campaign name to one of many concurrent creates', async () => {
    const won = oneWinner(
      await race('POST', '/v1/campaigns', (i) => discountCampaign('Unique name', { metadata: { racer: i } })),
      {
        details: 'Duplicated campaign exists with name Unique name',
        resource_type: 'campaign',
      },
    );
    assert.deepEqual(one("SELECT count(*) AS n, min(id) AS id FROM campaigns WHERE name = 'Unique name'"), {
      n: 1,
      id: won.body.id,
    });
  });

  it('gives a product collection name to one of many concurrent creates', async () => {
    const product = (await pair.server.request('POST', '/v1/products', { body: { name: 'Collected' } })).body;
    const body = () => ({
      type: 'STATIC',
      name: 'Unique collection',
      products: [{ id: product.id, object: 'product' }],
    });
    const won = oneWinner(await race('POST', '/v1/product-collections', body), {
      details: 'Duplicated products_collection exists with name Unique collection',
      resource_type: 'products_collection',
    });
    assert.deepEqual(
      one("SELECT count(*) AS n, min(id) AS id FROM product_collections WHERE name = 'Unique collection'"),
      { n: 1, id: won.body.id },
    );
  });

  it('gives a category name to one of many concurrent creates', async () => {
    const won = oneWinner(await race('POST', '/v1/categories', (i) => ({ name: 'Unique category', hierarchy: i })), {
      details: 'Duplicated category exists with name Unique category',
      resource_type: 'category',
    });
    assert.deepEqual(one("SELECT count(*) AS n, min(id) AS id FROM categories WHERE name = 'Unique category'"), {
      n: 1,
      id: won.body.id,
    });
  });

  it('assigns a validation rule to an object once under concurrent assignments', async () => {
    const { server } = pair;
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Ruled') });
    const rule = (
      await server.request('POST', '/v1/validation-rules', {
        body: { name: 'Big', rules: { '1': { name: 'order.amount', conditions: { $more_than: [100] } }, logic: '1' } },
      })
    ).body;
    const campaignId = one<{ id: string }>("SELECT id FROM campaigns WHERE name = 'Ruled'").id;
    const won = oneWinner(
      await race('POST', `/v1/validation-rules/${rule.id}/assignments`, () => ({ campaign: 'Ruled' })),
      {
        details: `Duplicated validation_rules_assignment exists with related_object_id ${campaignId}`,
        resource_type: 'validation_rules_assignment',
      },
    );
    assert.deepEqual(
      one('SELECT count(*) AS n, min(id) AS id FROM validation_rules_assignments WHERE rule_id = ?', rule.id),
      { n: 1, id: won.body.id },
    );
  });

  it('assigns a reward to a loyalty program once under concurrent assignments', async () => {
    const { server } = pair;
    await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Reward club') });
    const reward = (
      await server.request('POST', '/v1/rewards', {
        body: { name: 'Coin', parameters: { coin: { exchange_ratio: 1 } } },
      })
    ).body;
    const won = oneWinner(
      await race('POST', `/v1/rewards/${reward.id}/assignments`, () => ({ campaign: 'Reward club' })),
      {
        details: `Duplicated reward_assignment exists with reward ${reward.id}`,
        resource_type: 'reward_assignment',
      },
    );
    assert.deepEqual(
      one('SELECT count(*) AS n, min(id) AS id FROM reward_assignments WHERE reward_id = ?', reward.id),
      { n: 1, id: won.body.id },
    );
  });

  it('makes one customer of concurrent upserts of one new source_id, announced once', async () => {
    const answers = await race('POST', '/v1/customers', (i) => ({
      source_id: 'upserted-customer',
      metadata: { racer: i },
    }));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    const ids = new Set(answers.map((a) => a.body.id));
    assert.equal(ids.size, 1);
    const id = [...ids][0];
    assert.deepEqual(one("SELECT count(*) AS n, min(id) AS id FROM customers WHERE source_id = 'upserted-customer'"), {
      n: 1,
      id,
    });
    assert.deepEqual(
      one("SELECT count(*) AS n FROM customer_events WHERE customer_id = ? AND type = 'customer.created'", id),
      { n: 1 },
    );
  });

  it('makes one order of concurrent upserts of one new source_id, counted and paid once', async () => {
    const body = () => ({
      source_id: 'upserted-order',
      amount: 1000,
      status: 'PAID',
      customer: { source_id: 'order-racer' },
    });
    const answers = await race('POST', '/v1/orders', body);
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    const ids = new Set(answers.map((a) => a.body.id));
    assert.equal(ids.size, 1);
    assert.deepEqual(one("SELECT count(*) AS n, min(id) AS id FROM orders WHERE source_id = 'upserted-order'"), {
      n: 1,
      id: [...ids][0],
    });
    const customer = one<{ id: string; orders_total_count: number; orders_total_amount: number }>(
      "SELECT id, orders_total_count, orders_total_amount FROM customers WHERE source_id = 'order-racer'",
    );
    assert.deepEqual(
      { count: customer.orders_total_count, amount: customer.orders_total_amount },
      { count: 1, amount: 1000 },
    );
    const events = sqliteOf(pair.server.deps)
      .prepare(
        "SELECT type, count(*) AS n FROM customer_events WHERE customer_id = ? AND type LIKE 'customer.order.%' GROUP BY type ORDER BY type",
      )
      .all(customer.id);
    assert.deepEqual(events, [
      { type: 'customer.order.created', n: 1 },
      { type: 'customer.order.paid', n: 1 },
    ]);
  });

  it('publishes once for concurrent publications with one source_id, every one answered with it', async () => {
    const { server } = pair;
    // AUTO_UPDATE: a publication makes its voucher (a campaign created without a type is STATIC).
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Keyed publications', { type: 'AUTO_UPDATE' }),
    });
    const answers = await race('POST', '/v1/publications', () => ({
      campaign: 'Keyed publications',
      customer: { source_id: 'keyed-reader' },
      source_id: 'pub-keyed',
    }));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    assert.equal(new Set(answers.map((a) => a.body.voucher.code)).size, 1);
    assert.deepEqual(one("SELECT count(*) AS n FROM publications WHERE source_id = 'pub-keyed'"), { n: 1 });
    const vouchers = one(
      "SELECT count(*) AS n, sum(v.publish_count) AS published FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Keyed publications'",
    );
    assert.deepEqual(vouchers, { n: 1, published: 1 });
  });

  it('applies a balance change with one source_id once, on a gift card and on a loyalty card', async () => {
    const { server } = pair;
    await server.request('POST', '/v1/vouchers/KEYED-GIFT', { body: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } } });
    await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Keyed club') });
    await server.request('POST', '/v1/campaigns/Keyed club/vouchers/KEYED-CARD', { body: {} });
    const gift = await race('POST', '/v1/vouchers/KEYED-GIFT/balance', () => ({ amount: 250, source_id: 'top-up-1' }));
    const points = await race('POST', '/v1/loyalties/members/KEYED-CARD/balance', () => ({
      points: 40,
      source_id: 'bonus-1',
    }));
    for (const answers of [gift, points]) {
      assert.deepEqual(
        new Set(answers.map((a) => a.status)),
        new Set([200]),
        JSON.stringify(answers.find((a) => a.status !== 200)),
      );
      assert.equal(new Set(answers.map((a) => JSON.stringify(a.body))).size, 1, 'every answer replays the one change');
    }
    const ledger = (code: string) =>
      one(
        `SELECT count(*) AS n, sum(e.delta) AS s FROM ledger_entries e JOIN vouchers v ON v.id = e.voucher_id WHERE v.code = ? AND e.source_id IS NOT NULL`,
        code,
      );
    assert.deepEqual(
      [ledger('KEYED-GIFT'), ledger('KEYED-CARD')],
      [
        { n: 1, s: 250 },
        { n: 1, s: 40 },
      ],
    );
    assert.deepEqual(one("SELECT gift_balance, loyalty_balance FROM vouchers WHERE code = 'KEYED-GIFT'"), {
      gift_balance: 1250,
      loyalty_balance: null,
    });
    assert.deepEqual(one("SELECT loyalty_balance FROM vouchers WHERE code = 'KEYED-CARD'"), { loyalty_balance: 40 });
  });
});
