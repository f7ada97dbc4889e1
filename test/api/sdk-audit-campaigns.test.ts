import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { campaignShape } from '../support/campaign-shape.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference, withoutNulls } from '../support/openapi.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOW = '2025-03-01T10:00:00.000Z';
type Json = Record<string, unknown>;

/** An answer that started a job. */
interface AsyncAction {
  async_action_id: string;
}

/** An error as the SDK rejects with it: the API's error body. */
interface ApiError {
  code: number;
  key: string;
  message: string;
  details: string;
}

/** A voucher as a campaign's addVoucher answers it: the fields the test reads, and the rest. */
interface VoucherBody {
  campaign_id: string;
  discount: unknown;
  metadata: unknown;
  [field: string]: unknown;
}

/** A page of a gift card's transactions, with the fields the test reads. */
interface Transactions {
  data: Array<{ type: string; details: { balance: { balance: number } } }>;
}

/** A promotion campaign as created: its tiers with the fields the test reads. */
interface PromotionCampaign {
  id: string;
  campaign_type: string;
  promotion: { total: number; tiers: [PromotionTierBody, ...PromotionTierBody[]] };
  [field: string]: unknown;
}

interface PromotionTierBody {
  name: string;
  action: unknown;
  campaign: { id: string };
}

/**
 * The @voucherify/sdk methods on campaigns, vouchers, promotions, async actions and imports
 * that no other test called: each through the SDK, unchanged, its whole answer checked against
 * what the API answers for the same resource and against the reference's schema.
 */
describe('@voucherify/sdk: campaigns, vouchers, promotions and imports', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    sdk = serverSideClient(server);
    runner = testRunner(server.deps);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await runner.stop();
    await server.close();
  });
  const get = async (path: string): Promise<Json> => (await server.request('GET', path)).body;

  it('creates, reads, lists, updates and deletes a discount campaign (campaigns.create, get, list, update, delete)', async () => {
    const created = await sdk.campaigns.create(
      beyondSdkTypes({
        name: 'SDK Spring',
        campaign_type: 'DISCOUNT_COUPONS',
        type: 'STATIC',
        metadata: { region: 'EU' },
        voucher: {
          type: 'DISCOUNT_VOUCHER',
          discount: { type: 'PERCENT', percent_off: 10 },
          code_config: { pattern: 'SPR-####', charset: '0123456789' },
        },
      }),
    );
    const voucher = {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      code_config: { pattern: 'SPR-####', charset: '0123456789', length: 4 },
      redemption: { quantity: null },
      is_referral_code: false,
    };
    assert.deepEqual(
      created,
      campaignShape(created.id, NOW, { name: 'SDK Spring', type: 'STATIC', metadata: { region: 'EU' }, voucher }),
    );
    assertMatchesReference('POST', '/v1/campaigns', 200, withoutNulls(created));

    const byName = await sdk.campaigns.get('SDK Spring');
    assert.deepEqual(byName, created);
    assertMatchesReference('GET', '/v1/campaigns/{campaignId}', 200, withoutNulls(byName));

    const list = await sdk.campaigns.list(beyondSdkTypes({ limit: 10, page: 1, campaign_type: 'DISCOUNT_COUPONS' }));
    assert.deepEqual(list, await get('/v1/campaigns?limit=10&page=1&campaign_type=DISCOUNT_COUPONS'));
    assert.deepEqual([list.total, list.campaigns.map((c) => c.id)], [1, [created.id]]);
    assertMatchesReference('GET', '/v1/campaigns', 200, withoutNulls(list));

    const updated = await sdk.campaigns.update(
      'SDK Spring',
      beyondSdkTypes({
        description: 'Ten off',
        metadata: { region: 'US' },
      }),
    );
    assert.deepEqual(updated, { ...created, description: 'Ten off', metadata: { region: 'US' }, updated_at: NOW });
    assertMatchesReference('PUT', '/v1/campaigns/{campaignId}', 200, withoutNulls(updated));

    const deleted = (await sdk.campaigns.delete(created.id, { force: true })) as unknown as AsyncAction;
    assert.deepEqual(Object.keys(deleted), ['async_action_id']);
    assertMatchesReference('DELETE', '/v1/campaigns/{campaignId}', 202, deleted);
    await assert.rejects(sdk.campaigns.get(created.id), (error: ApiError) => {
      assert.deepEqual(
        [error.code, error.key, error.message, error.details],
        [404, 'not_found', 'Resource not found', `Cannot find campaign with id ${created.id}`],
      );
      return true;
    });
    assert.equal((await waitForJob(server, deleted.async_action_id)).status, 'DONE');
  });

  it('adds vouchers, imports them, updates and deletes one (campaigns.addVoucher, importVouchers; vouchers.update, delete)', async () => {
    const campaign = await sdk.campaigns.create(
      beyondSdkTypes({
        name: 'SDK Summer',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } },
      }),
    );
    const one = (await sdk.campaigns.addVoucher(
      'SDK Summer',
      beyondSdkTypes({
        code: 'SUM-ONE',
        metadata: { via: 'sdk' },
      }),
    )) as unknown as VoucherBody;
    assert.deepEqual(one, await get('/v1/vouchers/SUM-ONE'));
    assert.deepEqual(
      [one.campaign_id, one.discount, one.metadata],
      [campaign.id, { type: 'AMOUNT', amount_off: 500 }, { via: 'sdk' }],
    );
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/vouchers', 200, withoutNulls(one));

    const many = (await sdk.campaigns.addVoucher(
      campaign.id,
      {},
      beyondSdkTypes({ vouchers_count: 3 }),
    )) as unknown as AsyncAction;
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/vouchers', 202, many);
    const generated = await waitForJob(server, many.async_action_id);
    assert.deepEqual(
      [generated.type, generated.status, (await get(`/v1/campaigns/${campaign.id}`)).vouchers_count],
      ['CAMPAIGN.VOUCHERS_GENERATE', 'DONE', 4],
    );

    const imported = await sdk.campaigns.importVouchers(
      'SDK Summer',
      beyondSdkTypes([{ code: 'SUM-IMP-1' }, { code: 'SUM-ONE' }]),
    );
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/import', 202, imported);
    const job = await waitForJob(server, imported.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual(
      [job.type, job.result.message, job.result.failed],
      [
        'CAMPAIGN.VOUCHERS_IMPORT',
        '1 voucher(s) imported successfully, 1 failed.',
        [{ code: 'SUM-ONE', reason: 'Voucher with code SUM-ONE already exists' }],
      ],
    );

    const updated = await sdk.vouchers.update(
      beyondSdkTypes({ code: 'SUM-IMP-1', metadata: { tier: 'gold' }, active: false }),
    );
    assert.deepEqual(updated, await get('/v1/vouchers/SUM-IMP-1'));
    assert.deepEqual([updated.metadata, updated.active, updated.updated_at], [{ tier: 'gold' }, false, NOW]);
    assertMatchesReference('PUT', '/v1/vouchers/{code}', 200, withoutNulls(updated));

    assert.equal(await sdk.vouchers.delete('SUM-IMP-1', { force: true }), '');
    await assert.rejects(sdk.vouchers.get('SUM-IMP-1'), (error: ApiError) => {
      assert.deepEqual(
        [error.code, error.key, error.details],
        [404, 'not_found', 'Cannot find voucher with id SUM-IMP-1'],
      );
      return true;
    });
    assert.equal((await get(`/v1/campaigns/${campaign.id}`)).vouchers_count, 4);
  });

  it("lists a gift card's transactions and a voucher's redemptions (vouchers.listTransactions, redemptions.getForVoucher)", async () => {
    await sdk.vouchers.create(beyondSdkTypes({ code: 'SDK-GIFT', type: 'GIFT_VOUCHER', gift: { amount: 5000 } }));
    const redeemed = await sdk.redemptions.redeemStackable(
      beyondSdkTypes({
        order: { amount: 1200 },
        customer: { source_id: 'sdk-gift-ann' },
        redeemables: [{ object: 'voucher', id: 'SDK-GIFT', gift: { credits: 1200 } }],
      }),
    );
    const child = redeemed.redemptions[0] as unknown as { id: string };

    const transactions = await sdk.vouchers.listTransactions('SDK-GIFT', beyondSdkTypes({ limit: 10 }));
    assert.deepEqual(transactions, await get('/v1/vouchers/SDK-GIFT/transactions?limit=10'));
    assert.deepEqual(
      (transactions as unknown as Transactions).data.map((t) => [t.type, t.details.balance.balance]),
      [
        ['CREDITS_REDEMPTION', 3800],
        ['CREDITS_ADDITION', 5000],
      ],
    );
    assertMatchesReference('GET', '/v1/vouchers/{code}/transactions', 200, transactions);

    const entries = await sdk.redemptions.getForVoucher('SDK-GIFT');
    assert.deepEqual(entries, await get('/v1/vouchers/SDK-GIFT/redemption'));
    assert.deepEqual(
      [entries.quantity, entries.redeemed_quantity, entries.total, entries.redemption_entries?.map((r) => r.id)],
      [null, 1, 1, [child.id]],
    );
    assert.equal(entries.url, '/v1/vouchers/SDK-GIFT/redemptions?page=1&limit=10');
    assertMatchesReference('GET', '/v1/vouchers/{code}/redemption', 200, { ...withoutNulls(entries), quantity: null });
  });

  it('creates a promotion campaign with its tiers (promotions.create)', async () => {
    const created = (await sdk.promotions.create(
      beyondSdkTypes({
        name: 'SDK Promo',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'Ten off', banner: 'Ten off above 50', action: { discount: { type: 'AMOUNT', amount_off: 1000 } } },
          ],
        },
      }),
    )) as unknown as PromotionCampaign;
    assert.deepEqual(created, await get(`/v1/campaigns/${created.id}`));
    const tier = created.promotion.tiers[0];
    assert.deepEqual(
      [created.campaign_type, created.promotion.total, tier.name, tier.action, tier.campaign.id],
      ['PROMOTION', 1, 'Ten off', { discount: { type: 'AMOUNT', amount_off: 1000 } }, created.id],
    );
    assertMatchesReference('POST', '/v1/campaigns', 200, withoutNulls(created));
  });

  it('lists async actions (asyncActions.list) and imports orders and SKUs (orders.import, products.importSkusCSV)', async () => {
    const orders = await sdk.orders.import(
      beyondSdkTypes([
        { source_id: 'sdk-imp-1', amount: 2500, status: 'PAID', customer: { source_id: 'sdk-imp-ann' } },
      ]),
    );
    assertMatchesReference('POST', '/v1/orders/import', 200, orders);
    const ordersJob = await waitForJob(server, orders.async_action_id);
    assert.deepEqual(
      [ordersJob.type, ordersJob.result.message],
      ['ORDERS.IMPORT', '1 order(s) imported successfully, 0 failed.'],
    );
    assert.deepEqual([(await sdk.orders.get('sdk-imp-1')).amount], [2500]);

    await sdk.products.create({ source_id: 'sdk-tee', name: 'SDK tee', price: 2000, attributes: ['color'] });
    const file = join(mkdtempSync(join(tmpdir(), 'sdk-skus-')), 'skus.csv');
    writeFileSync(file, 'product_id,source_id,sku,price,attributes\nsdk-tee,sdk-tee-red,Red,2100,"{color:red}"\n');
    const skus = await sdk.products.importSkusCSV(file);
    assertMatchesReference('POST', '/v1/skus/importCSV', 200, skus);
    const skusJob = await waitForJob(server, skus.async_action_id);
    assertAsyncActionMatchesReference(skusJob);
    assert.equal(skusJob.result.message, '1 sku(s) imported successfully, 0 failed.');
    assert.deepEqual([(await sdk.products.getSku('sdk-tee-red')).price], [2100]);

    const list = await sdk.asyncActions.list({ limit: 2 });
    assert.deepEqual(list, await get('/v1/async-actions?limit=2'));
    assert.deepEqual(
      [list.async_actions.map((a: Json) => a.id), list.has_more],
      [[skus.async_action_id, orders.async_action_id], true],
    );
    assertMatchesReference('GET', '/v1/async-actions', 200, list);
  });
});
