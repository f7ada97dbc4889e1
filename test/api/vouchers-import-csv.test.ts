import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint, tempFiles } from '../support/db.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertAsyncActionMatchesReference, assertMatchesReference } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';
import { uploadFile } from '../support/upload.js';
import { sqliteOf } from '../support/sqlite.js';

/** A voucher as GET answers it, without what differs between two vouchers made alike. */
const sameAs = (voucher: Record<string, unknown>) => {
  const { id: _id, code, created_at: _c, updated_at: _u, assets: _a, ...rest } = voucher;
  return JSON.parse(JSON.stringify(rest).replaceAll(`/${code as string}/`, '/CODE/'));
};

/** POST /v1/vouchers/importCSV and /v1/campaigns/{id}/importCSV: VOUCHERS.IMPORT_CSV and CAMPAIGN.VOUCHERS_IMPORT_CSV. */
describe('vouchers CSV imports', () => {
  let server: TestServer;
  let runner: ReturnType<typeof testRunner>;
  const file = tempFiles();
  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps);
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Spring', {}, { discount: { type: 'AMOUNT', amount_off: 500 } }),
    });
    await server.request('POST', '/v1/vouchers/TAKEN', { body: { type: 'GIFT_VOUCHER', gift: { amount: 100 } } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await runner.stop();
    await server.close();
  });

  it('imports standalone vouchers through the official client, each as POST /v1/vouchers makes it', async () => {
    const csv = [
      'Code,Voucher Type,Value,Discount Type,Category,Start Date,Expiration Date,Redemption Limit,Redeemed Quantity,Active,Additional Info,color',
      'CSV-PCT,DISCOUNT_VOUCHER,15,PERCENT,Spring,2024-01-01,2030-12-31T23:59:59.000Z,3,0,true,"note, with comma",red',
      'CSV-GIFT,Gift Voucher,5000,,,,,,,false,,',
      'CSV-CARD,LOYALTY_CARD,120,,,,,,,,,',
      'TAKEN,GIFT_VOUCHER,100,,,,,,,,,',
      'CSV-BAD,DISCOUNT_VOUCHER,150,PERCENT,,,,,,,,',
      'CSV-USED,DISCOUNT_VOUCHER,1,AMOUNT,,,,,2,,,',
      ',GIFT_VOUCHER,1,,,,,,,,,',
    ].join('\n');
    const answer = await serverSideClient(server).vouchers.importCSV(file('vouchers.csv', csv));
    assertMatchesReference('POST', '/v1/vouchers/importCSV', 202, answer);
    const job = await waitForJob(server, answer.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status], ['VOUCHERS.IMPORT_CSV', 'DONE']);
    assert.deepEqual(job.result, {
      message: '3 voucher(s) imported successfully, 4 failed.',
      failed: [
        { code: 'TAKEN', row: 4, reason: 'Duplicated voucher exists with code TAKEN' },
        { code: 'CSV-BAD', row: 5, reason: 'discount.percent_off must be less than or equal to 100' },
        {
          code: 'CSV-USED',
          row: 6,
          reason: 'Redeemed Quantity cannot be imported (only redemptions made here count); leave it empty or 0',
        },
        { row: 7, reason: 'code is a required field' },
      ],
      done_count: 3,
      failed_count: 4,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    const twins: Array<[string, Record<string, unknown>]> = [
      [
        'CSV-PCT',
        {
          type: 'DISCOUNT_VOUCHER',
          discount: { type: 'PERCENT', percent_off: 15 },
          category: 'Spring',
          start_date: '2024-01-01',
          expiration_date: '2030-12-31T23:59:59.000Z',
          redemption: { quantity: 3 },
          active: true,
          additional_info: 'note, with comma',
          metadata: { color: 'red' },
        },
      ],
      ['CSV-GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 5000 }, active: false }],
      ['CSV-CARD', { type: 'LOYALTY_CARD', loyalty_card: { points: 120 } }],
    ];
    for (const [code, body] of twins) {
      const imported = (await server.request('GET', `/v1/vouchers/${code}`)).body;
      const twin = (await server.request('POST', `/v1/vouchers/TWIN-${code}`, { body })).body;
      assert.deepEqual(sameAs(imported), sameAs((await server.request('GET', `/v1/vouchers/${twin.code}`)).body), code);
    }
  });

  it('imports vouchers into a campaign through the official client, with the campaign discount type for a bare Value', async () => {
    const csv = 'code,value,active\nSPR-1,,\nSPR-2,750,\nSPR-1,,\nSPR-3,,maybe\n';
    const answer = await serverSideClient(server).campaigns.importVouchersCSV('Spring', file('spring.csv', csv));
    assertMatchesReference('POST', '/v1/campaigns/{campaignId}/importCSV', 200, answer);
    const job = await waitForJob(server, answer.async_action_id);
    assertAsyncActionMatchesReference(job);
    assert.deepEqual([job.type, job.status], ['CAMPAIGN.VOUCHERS_IMPORT_CSV', 'DONE']);
    assert.deepEqual(job.result, {
      message: '2 voucher(s) imported successfully, 2 failed.',
      failed: [
        { code: 'SPR-1', row: 3, reason: 'Voucher with code SPR-1 already exists' },
        { code: 'SPR-3', row: 4, reason: 'active must be a boolean' },
      ],
      done_count: 2,
      failed_count: 2,
      reports: [`/v1/async-actions/${job.id}/failures`],
    });
    assert.deepEqual((await server.request('GET', '/v1/vouchers/SPR-1')).body.discount, {
      type: 'AMOUNT',
      amount_off: 500,
    });
    assert.deepEqual((await server.request('GET', '/v1/vouchers/SPR-2')).body.discount, {
      type: 'AMOUNT',
      amount_off: 750,
    });
    assert.equal((await server.request('GET', '/v1/campaigns/Spring')).body.vouchers_count, 2);
  });

  it('answers 404 for an unknown campaign before reading the upload, leaving the database as it was', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await uploadFile(server, '/v1/campaigns/Nope/importCSV', 'code\nX\n');
    assert.deepEqual(res.body, notFoundBody(res, 'campaign', 'Nope'));
    const empty = await uploadFile(server, '/v1/vouchers/importCSV', 'code\n');
    assert.deepEqual(
      empty.body,
      errorBody(empty, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'The file holds no vouchers',
      }),
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });
});
