import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { campaignShape } from '../support/campaign-shape.js';
import { percentDiscount } from '../support/factories.js';
import { assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOW = '2025-03-01T10:00:00.000Z';
/** The charset the reference's recorded answers show for a code_config sent without one. */
const REFERENCE_CHARSET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const defaultCodeConfig = { length: 8, charset: REFERENCE_CHARSET, pattern: '########' };

/** Issue 27, part 2: what create bodies get for the optional fields they leave out. */
describe('create defaults, as the reference fills them in', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
  });
  after(() => server.close());

  it('POST /v1/campaigns without type, charset or use_voucher_metadata_schema: STATIC, 0-9a-zA-Z, true', async () => {
    const res = await server.request('POST', '/v1/campaigns', {
      body: { name: 'Plain', voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount } },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body,
      campaignShape(res.body.id, NOW, {
        name: 'Plain',
        type: 'STATIC',
        use_voucher_metadata_schema: true,
        voucher: {
          type: 'DISCOUNT_VOUCHER',
          discount: percentDiscount,
          code_config: defaultCodeConfig,
          redemption: { quantity: null },
          is_referral_code: false,
        },
      }),
    );
    assertMatchesReference('POST', '/v1/campaigns', 200, withoutNulls(res.body));
    const [code] = (await server.request('POST', '/v1/campaigns/Plain/vouchers', { body: {} })).body.code;
    assert.ok(REFERENCE_CHARSET.includes(code as string));
  });

  it('the official client: campaigns.create without type makes a STATIC campaign', async () => {
    const made = await serverSideClient(server).campaigns.create({
      name: 'Sdk',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    } as never);
    assert.deepEqual(
      [
        made.type,
        (made as unknown as { use_voucher_metadata_schema: boolean }).use_voucher_metadata_schema,
        made.voucher?.code_config?.charset,
      ],
      ['STATIC', true, REFERENCE_CHARSET],
    );
  });

  it("a loyalty program's join_once is true, forced even when false is sent, on create and on update", async () => {
    const card = { loyalty_card: { points: 0 } };
    const sent = await server.request('POST', '/v1/loyalties', { body: { name: 'Stars', voucher: card } });
    const refused = await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Moons',
        campaign_type: 'LOYALTY_PROGRAM',
        join_once: false,
        voucher: { type: 'LOYALTY_CARD', ...card },
      },
    });
    for (const [res, name] of [
      [sent, 'Stars'],
      [refused, 'Moons'],
    ] as const) {
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body,
        campaignShape(res.body.id, NOW, {
          name,
          campaign_type: 'LOYALTY_PROGRAM',
          join_once: true,
          voucher: {
            type: 'LOYALTY_CARD',
            ...card,
            code_config: defaultCodeConfig,
            redemption: { quantity: null },
            is_referral_code: false,
          },
        }),
      );
    }
    const updated = await server.request('PUT', '/v1/loyalties/Stars', {
      body: { join_once: false, description: 'Still once' },
    });
    assert.deepEqual([updated.status, updated.body.join_once, updated.body.description], [200, true, 'Still once']);
  });

  it("an earning rule without dates inherits its program's start and expiration dates", async () => {
    const dates = { start_date: '2025-04-01T00:00:00.000Z', expiration_date: '2025-12-31T00:00:00.000Z' };
    await server.request('POST', '/v1/loyalties', {
      body: { name: 'Dated', ...dates, voucher: { loyalty_card: { points: 0 } } },
    });
    const res = await server.request('POST', '/v1/loyalties/Dated/earning-rules', {
      body: [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 5 } }],
    });
    assert.equal(res.status, 200, res.text);
    const [rule] = res.body;
    assert.deepEqual(rule, {
      id: rule.id,
      created_at: NOW,
      updated_at: null,
      loyalty: { type: 'FIXED', points: 5 },
      event: 'order.paid',
      source: { object_id: rule.source.object_id, object_type: 'campaign' },
      active: true,
      ...dates,
      validation_rule_id: null,
      object: 'earning_rule',
      metadata: {},
    });
  });
});
