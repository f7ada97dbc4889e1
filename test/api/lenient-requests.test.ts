import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { discountCampaign, loyaltyCampaign } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOW = '2025-03-01T10:00:00.000Z';

/** Issue 27, part 3: requests promo refused and the real API accepts. */
describe('requests the real API accepts', () => {
  let server: TestServer;
  let client: ServerSideClient;
  let spring: Record<string, unknown>;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    client = serverSideClient(server);
    spring = (
      await server.request('POST', '/v1/campaigns', { body: discountCampaign('Spring', { type: 'AUTO_UPDATE' }) })
    ).body;
    await server.request('POST', '/v1/campaigns', { body: loyaltyCampaign('Stars') });
    await server.request('POST', '/v1/customers', { body: { source_id: 'ann', name: 'Ann' } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const post = (path: string, body: unknown) => server.request('POST', path, { body });

  describe('POST /v1/publications', () => {
    it('takes campaign: null beside a voucher', async () => {
      await post('/v1/campaigns/Spring/vouchers/PUB-NULL', {});
      const res = await post('/v1/publications', {
        voucher: 'PUB-NULL',
        campaign: null,
        customer: { source_id: 'ann' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        [res.body.voucher.code, res.body.voucher.holder_id, res.body.result],
        ['PUB-NULL', res.body.customer_id, 'SUCCESS'],
      );
      assertMatchesReference('POST', '/v1/publications', 200, withoutNulls(res.body));
    });

    it('takes a whole campaign object as campaign, by its id (the official client passes what campaigns.get answered)', async () => {
      const campaign = await client.campaigns.get('Spring');
      const res = await client.distributions.publications.create({
        campaign: campaign as never,
        customer: { source_id: 'bob' },
      });
      assert.deepEqual(
        [res.voucher?.campaign, res.voucher?.campaign_id, res.voucher?.holder_id],
        ['Spring', spring.id, res.customer_id],
      );
      // By name when the object has no id; extra keys are not read.
      const named = await post('/v1/publications', {
        campaign: { name: 'Spring', campaign_type: 'DISCOUNT_COUPONS', count: 2 },
        customer: { source_id: 'cid' },
      });
      assert.equal(named.status, 200, named.text);
      assert.deepEqual([named.body.result, named.body.vouchers_id.length], ['SUCCESS', 2]);
    });
  });

  describe('POST /v1/loyalties/{id}/members', () => {
    it("takes customer as a string: a source_id (upserted) or a customer id, as the reference's first example", async () => {
      const bySource = await client.loyalties.createMember('Stars', { customer: 'dan' } as never);
      const dan = (await server.request('GET', '/v1/customers/dan')).body;
      assert.deepEqual([bySource.holder_id, bySource.campaign, dan.source_id], [dan.id, 'Stars', 'dan']);
      const ann = (await server.request('GET', '/v1/customers/ann')).body;
      const byId = await post('/v1/loyalties/Stars/members', { customer: ann.id });
      assert.equal(byId.status, 200, byId.text);
      assert.deepEqual([byId.body.holder_id, byId.body.type], [ann.id, 'LOYALTY_CARD']);
      // Joining again (join_once) answers the same card.
      assert.equal((await post('/v1/loyalties/Stars/members', { customer: 'ann' })).body.code, byId.body.code);
    });
  });

  it('POST /v1/vouchers takes gift: {amount, balance}: the balance is ignored, a new card holds its amount', async () => {
    const gift = await client.vouchers.create({
      code: 'GIFT-BAL',
      type: 'GIFT_VOUCHER',
      gift: { amount: 5000, balance: 1200 },
    } as never);
    assert.deepEqual(gift.gift, { amount: 5000, subtracted_amount: 0, balance: 5000, effect: null });
    const generated = await post('/v1/vouchers', { type: 'GIFT_VOUCHER', gift: { amount: 300, balance: 300 } });
    assert.equal(generated.status, 200, generated.text);
    assert.deepEqual(generated.body.gift, { amount: 300, subtracted_amount: 0, balance: 300, effect: null });
  });

  describe('promotion and loyalty tiers', () => {
    it('takes tiers without action or without action.discount, and inline tiers in the older action: {type, amount_off} shape', async () => {
      const res = await post('/v1/campaigns', {
        name: 'Tiers',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'Bare' },
            { name: 'Empty', action: {} },
            { name: 'Older', action: { type: 'AMOUNT', amount_off: 500 } },
          ],
        },
      });
      assert.equal(res.status, 200, res.text);
      const tiers = res.body.promotion.tiers as Array<{ name: string; action: unknown }>;
      assert.deepEqual(
        tiers.map((t) => [t.name, t.action]),
        [
          ['Bare', {}],
          ['Empty', {}],
          ['Older', { discount: { type: 'AMOUNT', amount_off: 500 } }],
        ],
      );
      const added = await client.promotions.tiers.create(res.body.id, { name: 'Later' } as never);
      assert.deepEqual([added.name, added.action], ['Later', {}]);
      // A tier without a discount validates and gives none.
      const validation = await post('/v1/validations', {
        redeemables: [{ object: 'promotion_tier', id: tiers[0] && (res.body.promotion.tiers[0].id as string) }],
        order: { amount: 1000 },
      });
      assert.equal(validation.status, 200, validation.text);
      assert.deepEqual([validation.body.valid, validation.body.order.total_discount_amount ?? 0], [true, 0]);
    });

    it('takes loyalty tiers without points.from: they start at 0', async () => {
      const res = await client.loyalties.createTiers('Stars', [{ name: 'Base', points: { to: 99 } }] as never);
      assert.deepEqual(
        res.map((t: { name: string; points: unknown }) => [t.name, t.points]),
        [['Base', { from: 0, to: 99 }]],
      );
    });
  });

  it('lists take an order value they do not know, answering their default order (the official client passes it through)', async () => {
    const campaigns = await client.campaigns.list({ order: 'name' } as never);
    assert.deepEqual(campaigns, await client.campaigns.list());
    const vouchers = await client.vouchers.list({ order: '-expiration_date' } as never);
    assert.deepEqual(vouchers, await client.vouchers.list());
    const publications = await server.request('GET', '/v1/publications?order=amount&colour=red');
    assert.deepEqual(
      [publications.status, publications.body],
      [200, (await server.request('GET', '/v1/publications')).body],
    );
  });

  it('POST /v1/campaigns/{id}/vouchers takes a body that is not an object (the count passed as the body): it names no field', async () => {
    const one = await client.campaigns.addVoucher('Spring', 3 as never);
    assert.deepEqual(
      [(one as { campaign_id: string }).campaign_id, (one as { type: string }).type],
      [spring.id, 'DISCOUNT_VOUCHER'],
    );
    const many = await server.request('POST', '/v1/campaigns/Spring/vouchers?vouchers_count=2', {
      raw: '"two"',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual([many.status, Object.keys(many.body)], [202, ['async_action_id']]);
  });
});
