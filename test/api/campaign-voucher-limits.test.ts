import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIMITS } from '../../src/lib/limits.js';
import { dbFingerprint } from '../support/db.js';
import { errorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { sqliteOf } from '../support/sqlite.js';

const invalid = (res: TestResponse, details: string) =>
  errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });

describe('campaigns and vouchers bound their stored values like every other resource', () => {
  let server: TestServer;
  let runner: ReturnType<typeof testRunner>;
  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps);
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Bounded', { vouchers_count: 1 }) });
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Cards',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      },
    });
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  const big = { blob: 'x'.repeat(LIMITS.metadataBytes) };
  const long = 'd'.repeat(LIMITS.longText + 1);
  const tier = { name: 't', action: { discount: { type: 'AMOUNT', amount_off: 1 } } };

  it('refuses metadata, descriptions, infos and names beyond their limits, naming the field and the limit', async () => {
    const code = (await server.request('GET', '/v1/vouchers?campaign=Bounded')).body.vouchers[0].code;
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      [
        'POST',
        '/v1/campaigns',
        discountCampaign('c', { metadata: big }),
        `metadata must be at most ${LIMITS.metadataBytes} bytes as JSON`,
      ],
      [
        'POST',
        '/v1/campaigns',
        discountCampaign('c', { referral_program: big }),
        `referral_program must be at most ${LIMITS.metadataBytes} bytes as JSON`,
      ],
      [
        'POST',
        '/v1/campaigns',
        discountCampaign('c', { description: long }),
        `description must be at most ${LIMITS.longText} characters`,
      ],
      [
        'POST',
        '/v1/campaigns',
        discountCampaign('c', { category: 'c'.repeat(256) }),
        'category must be at most 255 characters',
      ],
      [
        'POST',
        '/v1/campaigns',
        { name: 'p', campaign_type: 'PROMOTION', promotion: { tiers: [{ ...tier, metadata: big }] } },
        `promotion.tiers[0].metadata must be at most ${LIMITS.metadataBytes} bytes as JSON`,
      ],
      [
        'POST',
        '/v1/campaigns',
        { name: 'p', campaign_type: 'PROMOTION', promotion: { tiers: [{ ...tier, name: 'n'.repeat(256) }] } },
        'promotion.tiers[0].name must be at most 255 characters',
      ],
      ['PUT', '/v1/campaigns/Bounded', { metadata: [] }, 'metadata must be an object'],
      [
        'POST',
        '/v1/campaigns/Bounded/vouchers',
        { additional_info: long },
        `additional_info must be at most ${LIMITS.longText} characters`,
      ],
      [
        'POST',
        '/v1/campaigns/Bounded/vouchers',
        { category: 'c'.repeat(256) },
        'category must be at most 255 characters',
      ],
      [
        'PUT',
        `/v1/vouchers/${code}`,
        { metadata: big },
        `metadata must be at most ${LIMITS.metadataBytes} bytes as JSON`,
      ],
      ['PUT', `/v1/vouchers/${code}`, { additional_info: 5 }, 'additional_info must be a string'],
    ];
    for (const [method, path, body, details] of cases) {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request(method, path, { body });
      assert.deepEqual(res.body, invalid(res, details), `${method} ${path} ${details}`);
      assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    }
  });

  it('fails an import item whose metadata is beyond the limit, and imports the others', async () => {
    const res = await server.request('POST', '/v1/campaigns/Cards/import', {
      body: [
        { code: 'BIG', loyalty_card: { points: 1 }, metadata: big },
        { code: 'SMALL', loyalty_card: { points: 1 }, metadata: { a: 1 } },
      ],
    });
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(job.result, {
      message: '1 voucher(s) imported successfully, 1 failed.',
      failed: [{ code: 'BIG', reason: `metadata must be at most ${LIMITS.metadataBytes} bytes as JSON` }],
      done_count: 1,
      failed_count: 1,
      reports: [`/v1/async-actions/${res.body.async_action_id}/failures`],
    });
  });

  it('fails an import item of another voucher type for that reason alone', async () => {
    const res = await server.request('POST', '/v1/campaigns/Bounded/import', {
      body: [{ code: 'GIFT-IN-DISCOUNT', type: 'GIFT_VOUCHER', gift: { amount: 5 } }],
    });
    const job = await waitForJob(server, res.body.async_action_id);
    assert.deepEqual(job.result?.failed, [
      { code: 'GIFT-IN-DISCOUNT', reason: "type GIFT_VOUCHER does not match the campaign's DISCOUNT_VOUCHER vouchers" },
    ]);
  });
});
