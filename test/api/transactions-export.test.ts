import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { dbFingerprint } from '../support/db.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { assertMatchesReference } from '../support/openapi.js';
import { beyondSdkTypes, serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2024-09-01T00:00:00.000Z';
/** A voucher, program or card as created: the fields the tests read, and the rest. */
interface Resource {
  id: string;
  code: string;
  [field: string]: unknown;
}

/** An export as the API answers it. */
interface ExportBody {
  id: string;
  parameters: { filters: Record<string, unknown>; [field: string]: unknown };
  result: { url: string } | null;
  [field: string]: unknown;
}

/** An error as the SDK rejects with it: the API's error body. */
interface ApiError {
  code: number;
  key: string;
  details: string;
}

/**
 * POST /v1/vouchers/{code}/transactions/export, /v1/loyalties/members/{memberId}/transactions/export
 * and /v1/loyalties/{campaignId}/members/{memberId}/transactions/export (the SDK's
 * vouchers.exportTransactions and loyalties.exportCardTransactions): a voucher_transactions
 * export of one card's ledger.
 */
describe("exports of one card's transactions through @voucherify/sdk", () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let runner: JobRunner;
  let program: Resource;
  let card: Resource;
  let gift: Resource;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    sdk = serverSideClient(server);
    runner = testRunner(server.deps);
    gift = (await sdk.vouchers.create(
      beyondSdkTypes({
        code: 'TX-GIFT',
        type: 'GIFT_VOUCHER',
        gift: { amount: 1000 },
      }),
    )) as unknown as Resource;
    await sdk.vouchers.balance.create('TX-GIFT', beyondSdkTypes({ amount: 500, reason: 'Top-up' }));
    program = (await sdk.loyalties.create(
      beyondSdkTypes({
        name: 'TX Stars',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 10 } },
      }),
    )) as unknown as Resource;
    card = (await sdk.loyalties.createMember(program.id, { customer: { source_id: 'tx-ann' } })) as unknown as Resource;
    await sdk.loyalties.addPoints(program.id, card.code, beyondSdkTypes({ points: 25, reason: 'Welcome' }));
    // Another card's rows, which no export of these cards may hold.
    const other = (await sdk.loyalties.createMember(program.id, {
      customer: { source_id: 'tx-bob' },
    })) as unknown as Resource;
    await sdk.loyalties.addPoints(program.id, other.code, beyondSdkTypes({ points: 99 }));
  });
  after(async () => {
    await runner.stop();
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  async function csvOf(created: ExportBody): Promise<string> {
    await waitForJob(
      server,
      (
        await server.deps.db
          .selectFrom('exports')
          .select('async_action_id')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).async_action_id,
    );
    const done = (await sdk.distributions.exports.get(created.id)) as unknown as ExportBody;
    assert.deepEqual(done, {
      ...created,
      status: 'DONE',
      result: { url: `${server.url}/v1/exports/${created.id}/download` },
    });
    const file = await fetch(done.result!.url, {
      headers: { 'X-App-Id': server.serverKey.app_id, 'X-App-Token': server.serverKey.app_token },
    });
    assert.equal(file.status, 200);
    return file.text();
  }
  const scheduled = (id: string, parameters: Record<string, unknown>) => ({
    id,
    object: 'export',
    created_at: NOW,
    status: 'SCHEDULED',
    channel: 'API',
    exported_object: 'voucher_transactions',
    parameters,
    result: null,
    user_id: null,
  });

  it("exports a loyalty card's transactions, with and without its program, with the fields and order asked", async () => {
    const parameters = { fields: ['type', 'amount', 'balance', 'reason'], order: '-created_at' };
    const created = (await sdk.loyalties.exportCardTransactions(
      card.code,
      program.id,
      beyondSdkTypes({ parameters }),
    )) as unknown as ExportBody;
    assert.match(created.id, /^exp_/);
    assert.deepEqual(
      created,
      scheduled(created.id, { ...parameters, filters: { voucher_id: { conditions: { $in: [card.id] } } } }),
    );
    assertMatchesReference('POST', '/v1/loyalties/{campaignId}/members/{memberId}/transactions/export', 200, created);
    assert.equal(
      await csvOf(created),
      'type,amount,balance,reason\r\nPOINTS_ADDITION,25,35,Welcome\r\nPOINTS_ADDITION,10,10,Opening balance\r\n',
    );

    const bare = (await sdk.loyalties.exportCardTransactions(
      card.code,
      null as unknown as string,
    )) as unknown as ExportBody;
    const defaults = ['id', 'type', 'source_id', 'reason', 'source', 'balance', 'amount', 'created_at'];
    assert.deepEqual(
      bare,
      scheduled(bare.id, { fields: defaults, filters: { voucher_id: { conditions: { $in: [card.id] } } } }),
    );
    assertMatchesReference('POST', '/v1/loyalties/members/{memberId}/transactions/export', 200, bare);
    const rows = (await csvOf(bare)).split('\r\n');
    assert.deepEqual([rows[0], rows.length], [defaults.join(','), 4]);
  });

  it("exports a gift card's transactions (vouchers.exportTransactions), with the request's own filters joined by and", async () => {
    const parameters = {
      fields: ['type', 'amount', 'reason'],
      filters: { type: { conditions: { $in: ['CREDITS_ADDITION'] } } },
    };
    const created = (await sdk.vouchers.exportTransactions(
      'TX-GIFT',
      beyondSdkTypes({ parameters }),
    )) as unknown as ExportBody;
    assert.deepEqual(
      created,
      scheduled(created.id, {
        fields: parameters.fields,
        filters: { ...parameters.filters, voucher_id: { conditions: { $in: [gift.id] } } },
      }),
    );
    // The reference caps each voucher id of this answer's filter at one character (maxLength 1,
    // beside its own example's 8-character code): checked with a one-character id in its place.
    const filters = { ...created.parameters.filters, voucher_id: { conditions: { $in: ['v'] } } };
    assertMatchesReference('POST', '/v1/vouchers/{code}/transactions/export', 200, {
      ...created,
      parameters: { ...created.parameters, filters },
    });
    assert.equal(
      await csvOf(created),
      'type,amount,reason\r\nCREDITS_ADDITION,1000,Opening balance\r\nCREDITS_ADDITION,500,Top-up\r\n',
    );
  });

  it('refuses an unknown card, a card of another program, and filters that would reach beyond the card, changing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const refusals: Array<[() => Promise<unknown>, number, string, string]> = [
      [
        () => sdk.vouchers.exportTransactions('TX-NONE', beyondSdkTypes({})),
        404,
        'not_found',
        'Cannot find voucher with id TX-NONE',
      ],
      [
        () => sdk.loyalties.exportCardTransactions('TX-GIFT', program.id),
        404,
        'not_found',
        'Cannot find voucher with id TX-GIFT',
      ],
      [
        () => sdk.loyalties.exportCardTransactions(card.code, 'camp_none'),
        404,
        'not_found',
        'Cannot find campaign with id camp_none',
      ],
      [
        () =>
          sdk.loyalties.exportCardTransactions(
            card.code,
            program.id,
            beyondSdkTypes({
              parameters: {
                filters: {
                  junction: 'OR',
                  type: { conditions: { $in: ['POINTS_ADDITION'] } },
                  voucher_id: { conditions: { $in: ['v_x'] } },
                },
              },
            }),
          ),
        400,
        'invalid_export_params',
        'parameters.filters.voucher_id: the export holds the transactions of the voucher the path names; parameters.filters.junction: the transactions of one voucher take filters joined by and',
      ],
      [
        () => sdk.vouchers.exportTransactions('TX-GIFT', beyondSdkTypes({ parameters: { fields: ['code'] } })),
        400,
        'invalid_export_params',
        'Unknown fields: code; allowed: id, campaign_id, voucher_id, type, source_id, reason, source, related_transaction_id, balance, amount, created_at, details',
      ],
      [
        () => sdk.vouchers.exportTransactions('TX-GIFT', beyondSdkTypes({ exported_object: 'voucher' })),
        400,
        'invalid_payload',
        'the body holds unknown keys: exported_object',
      ],
    ];
    for (const [call, code, key, details] of refusals) {
      await assert.rejects(call(), (error: ApiError) => {
        assert.deepEqual([error.code, error.key, error.details], [code, key, details]);
        return true;
      });
    }
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });
});
