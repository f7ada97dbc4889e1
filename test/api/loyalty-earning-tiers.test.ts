import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Tiers change what earning rules give: a tier's `earning_rules` mapping (MULTIPLY, CUSTOM),
 * and rules on customer.loyalty.tier.* events earn when the member's tier moves.
 * Silver is 100..499 points (R1 x2), Gold 500 and more (R1 gives 1,000).
 */
describe('earning with tiers', () => {
  let server: TestServer;
  let code: string;
  const post = (path: string, body?: unknown) => server.request('POST', path, { body });

  before(async () => {
    server = await startTestServer();
    await post('/v1/loyalties', { name: 'Tiered', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    const [r1] = (
      await post('/v1/loyalties/Tiered/earning-rules', [
        { event: 'order.paid', loyalty: { type: 'FIXED', points: 100 } },
      ])
    ).body;
    const tiers = await post('/v1/loyalties/Tiered/tiers', [
      {
        name: 'Silver',
        points: { from: 100, to: 499 },
        earning_rules: { [r1.id]: { type: 'MULTIPLY', multiplier: 2 } },
      },
      { name: 'Gold', points: { from: 500 }, earning_rules: { [r1.id]: { type: 'CUSTOM', points: 1000 } } },
    ]);
    assert.equal(tiers.status, 200, JSON.stringify(tiers.body));
    const [silver, gold] = tiers.body;
    const rules = await post('/v1/loyalties/Tiered/earning-rules', [
      { event: 'customer.loyalty.tier.joined', loyalty_tier: { id: silver.id }, loyalty: { type: 'FIXED', points: 5 } },
      { event: 'customer.loyalty.tier.joined', loyalty_tier: { id: gold.id }, loyalty: { type: 'FIXED', points: 900 } },
      { event: 'customer.loyalty.tier.upgraded', loyalty_tier: { id: gold.id }, loyalty: { type: 'FIXED', points: 7 } },
      {
        event: 'customer.loyalty.tier.upgraded',
        loyalty_tier: { id: gold.id },
        loyalty: { type: 'FIXED', points: 600 },
        active: false,
      },
    ]);
    assert.equal(rules.status, 200, JSON.stringify(rules.body));
    code = (await post('/v1/loyalties/Tiered/members', { customer: { source_id: 'tina' } })).body.code;
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const pay = (sourceId: string) =>
    post('/v1/orders', { source_id: sourceId, status: 'PAID', customer: { source_id: 'tina' }, amount: 1000 });
  const balance = async () => (await server.request('GET', `/v1/loyalties/members/${code}`)).body.loyalty_card.balance;
  const tierName = async () =>
    (await server.request('GET', `/v1/loyalties/members/${code}/tiers`)).body.data.map((t: { name: string }) => t.name);

  it('joins a tier by the points an order earned, and the tier.joined rule of that tier earns once', async () => {
    await pay('t-1');
    assert.equal(await balance(), 105, '100 for the order, then 5 for joining Silver');
    assert.deepEqual(await tierName(), ['Silver']);
  });

  it('applies the tier mapping: MULTIPLY in Silver', async () => {
    await pay('t-2');
    assert.equal(await balance(), 305);
  });

  it('an upgrade earns the tier.upgraded rule of the new tier (not tier.joined, not an inactive rule); CUSTOM in Gold', async () => {
    await pay('t-3');
    assert.equal(await balance(), 512, '200 (Silver x2), then 7 for the upgrade to Gold');
    assert.deepEqual(await tierName(), ['Gold']);
    await pay('t-4');
    assert.equal(await balance(), 1512, 'Gold gives R1 1,000 points');
  });
});
