import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { percentDiscount } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Issue 14, point 1: what the real API accepts, promo accepts. */
describe('POST /v1/campaigns, lenient as the real API', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await server.request('POST', '/v1/campaigns', { body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesReference('POST', '/v1/campaigns', 200, withoutNulls(res.body));
    return res.body;
  };

  it('infers campaign_type from voucher.type, promotion or referral_program', async () => {
    const inferred = [
      [{ name: 'Disc', voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount } }, 'DISCOUNT_COUPONS'],
      [{ name: 'Gift', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } } }, 'GIFT_VOUCHERS'],
      [{ name: 'Loyal', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } }, 'LOYALTY_PROGRAM'],
      [
        {
          name: 'Refer',
          referral_program: { conversion_event_type: 'redemption' },
          voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount },
        },
        'REFERRAL_PROGRAM',
      ],
      [{ name: 'Promo', promotion: { tiers: [{ name: 'Tier', action: { discount: percentDiscount } }] } }, 'PROMOTION'],
    ] as const;
    for (const [body, type] of inferred) assert.equal((await create(body)).campaign_type, type, body.name);
  });

  it('starts a PROMOTION without tiers', async () => {
    for (const [name, promotion] of [
      ['Bare', undefined],
      ['Empty', { tiers: [] }],
    ] as const) {
      const campaign = await create({ name, campaign_type: 'PROMOTION', ...(promotion ? { promotion } : {}) });
      assert.deepEqual(
        [campaign.campaign_type, campaign.promotion.tiers, campaign.promotion.total],
        ['PROMOTION', [], 0],
      );
    }
  });

  it("accepts and ignores a card template's balance", async () => {
    const campaign = await create({
      name: 'Balanced',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 50, balance: 50 } },
    });
    assert.deepEqual(campaign.voucher.loyalty_card, { points: 50 });
  });
});
