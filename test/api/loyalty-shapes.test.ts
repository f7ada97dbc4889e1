import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { serverSideClient, type ServerSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { voucherBody } from '../support/voucher-shape.js';

const NOW = '2025-03-01T10:00:00.000Z';

/**
 * Loyalty and balance shapes as the reference answers them, seen through @voucherify/sdk:
 * null where nothing is (points of a voucher that is no card, points to expire of a card with
 * none), no listed transaction for a card's starting points, and a balance change made
 * through POST /v1/vouchers/{code}/balance recorded with source "API" and its operation_type.
 */
describe('loyalty shapes', () => {
  let server: TestServer;
  let client: ServerSideClient;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    client = serverSideClient(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('a discount voucher has no redeemed points: null, not 0', async () => {
    const voucher = await client.vouchers.create({
      code: 'SHAPE-10',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
    } as Parameters<ServerSideClient['vouchers']['create']>[0]);
    assert.deepEqual(
      voucher,
      voucherBody(
        { id: voucher.id, code: 'SHAPE-10', created_at: NOW },
        { discount: { type: 'PERCENT', percent_off: 10 } },
      ),
    );
  });

  it('a new card from its campaign: no points to expire (next_expiration_date and _points left out), its starting points in no listed transaction', async () => {
    const program = await client.loyalties.create({
      name: 'Shape club',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 100 } },
    } as Parameters<ServerSideClient['loyalties']['create']>[0]);
    const member = await client.loyalties.createMember(program.id, { customer: { source_id: 'shape-ann' } });
    assert.deepEqual(member.loyalty_card, {
      points: 100,
      balance: 100,
      pending_points: 0,
      expired_points: 0,
      subtracted_points: 0,
    });
    assert.equal(member.redemption?.redeemed_points, 0);
    assert.deepEqual(await client.loyalties.listCardTransactions(member.code, program.id), {
      object: 'list',
      data_ref: 'data',
      data: [],
      has_more: false,
    });
  });

  it('a balance change through /v1/vouchers/{code}/balance is listed with source "API" and its operation_type', async () => {
    const gift = await client.vouchers.create({
      code: 'SHAPE-GIFT',
      type: 'GIFT_VOUCHER',
      gift: { amount: 1000 },
    } as Parameters<ServerSideClient['vouchers']['create']>[0]);
    const raw = await server.request('POST', '/v1/vouchers/SHAPE-GIFT/balance', {
      body: { amount: 500, source_id: 'top-up-1', reason: 'Top up' },
    });
    const balance = {
      amount: 500,
      total: 1500,
      balance: 1500,
      type: 'gift_voucher',
      object: 'balance',
      related_object: { type: 'voucher', id: gift.id },
      operation_type: 'MANUAL',
    };
    assert.deepEqual(raw.body, balance);
    const listed = await client.vouchers.listTransactions('SHAPE-GIFT');
    const { operation_type, ...answered } = balance;
    assert.deepEqual(listed.data[0], {
      id: listed.data[0]?.id,
      source_id: 'top-up-1',
      voucher_id: gift.id,
      campaign_id: null,
      source: 'API',
      reason: 'Top up',
      type: 'CREDITS_ADDITION',
      details: {
        balance: {
          type: 'gift_voucher',
          total: 1500,
          object: 'balance',
          amount: 500,
          balance: 1500,
          operation_type,
          related_object: answered.related_object,
        },
      },
      related_transaction_id: null,
      created_at: NOW,
    });
  });
});
