import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFingerprint } from '../../support/db.js';
import {
  beyondSdkTypes,
  clientSideClient,
  serverSideClient,
  type ClientSideClient,
  type ServerSideClient,
} from '../../support/sdk.js';
import { requestIdOf, startTestServer, type TestServer } from '../../support/server.js';
import {
  calculatedItem,
  calculatedOrder,
  type StoredOrder,
  giftCard,
  ITEMS,
  makeVoucher,
  percentVoucher,
} from './fixtures.js';
import { loyaltySetup } from './loyalty-setup.js';
import { sqliteOf } from '../../support/sqlite.js';

/**
 * The legacy single-voucher validation through the official SDK: `validations.validateVoucher`
 * and `validations.validate(code, ctx)` (POST /v1/vouchers/{code}/validate) and the client-side
 * `validate(params)` (GET /client/v1/validate?code=...&amount=...&item[...]). Valid answers are
 * the voucher validation object; invalid ones HTTP 200 `valid: false` with `error` and `reason`;
 * an unknown code 404. A validation writes nothing but the customer's validation event.
 */
/** A legacy validation answer as these tests read it: the calculated order apart from the rest. */
interface ValidationWithOrder {
  order: { created_at: string; items: Array<{ id: string }> };
  [field: string]: unknown;
}

/** A legacy redemption as the LOCK test reads it. */
interface LegacyRedemption {
  result: string;
  session: unknown;
  voucher: { redemption: { redeemed_quantity: number } };
}

/** A refused legacy validation (valid: false): the SDK's response type has no `error`. */
interface RefusedValidation {
  error: { request_id: string };
}

describe('legacy voucher validation (validations.validateVoucher, client validate)', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let browser: ClientSideClient;
  let customerId: string;
  let order: StoredOrder;
  const empty = { data: [], total: 0, data_ref: 'data', object: 'list' };
  before(async () => {
    server = await startTestServer();
    sdk = serverSideClient(server);
    browser = clientSideClient(server);
    customerId = (await server.request('POST', '/v1/customers', { body: { source_id: 'legacy-ann' } })).body.id;
    order = (
      await server.request('POST', '/v1/orders', {
        body: { source_id: 'legacy-order', customer: { id: customerId }, items: ITEMS },
      })
    ).body;
    await percentVoucher(server, 'LV-PCT', {
      metadata: { shelf: 'a' },
      start_date: '2020-01-01T00:00:00.000Z',
      expiration_date: '2099-01-01T00:00:00.000Z',
    });
    await giftCard(server, 'LV-GIFT', 1000, { gift: { amount: 1000, effect: 'APPLY_TO_ORDER' } });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('validates a discount voucher on a stored order, whole, writing only the validation event', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const events = () =>
      sqliteOf(server.deps)
        .prepare('SELECT type FROM customer_events WHERE customer_id = ? ORDER BY seq')
        .all(customerId) as Array<{ type: string }>;
    const eventsBefore = events().length;
    const lastSeq =
      (sqliteOf(server.deps).prepare('SELECT max(seq) AS seq FROM customer_events').get() as { seq: number | null })
        .seq ?? 0;
    const answer = await sdk.validations.validateVoucher('LV-PCT', {
      customer: { source_id: 'legacy-ann' },
      order: { source_id: 'legacy-order' },
    });
    assert.deepEqual(answer, {
      valid: true,
      code: 'LV-PCT',
      applicable_to: empty,
      inapplicable_to: empty,
      metadata: { shelf: 'a' },
      discount: { type: 'PERCENT', percent_off: 10 },
      order: calculatedOrder(order, { amount: 1000, discount: 100, applied: 100 }, {}),
      start_date: '2020-01-01T00:00:00.000Z',
      expiration_date: '2099-01-01T00:00:00.000Z',
      tracking_id: 'legacy-ann',
    });
    assert.deepEqual(
      events()
        .slice(eventsBefore)
        .map((e) => e.type),
      ['customer.validation.succeeded'],
    );
    // Nothing else changed: the event is the only row written.
    sqliteOf(server.deps).prepare('DELETE FROM customer_events WHERE seq > ?').run(lastSeq);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it("validates a gift card with validations.validate(code, ctx): the card's amount, balance and effect, the credits on the order", async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const answer = await sdk.validations.validate('LV-GIFT', {
      order: { amount: 500 },
      gift: { credits: 200 },
    } as never);
    const { order: answered, ...rest } = answer as unknown as ValidationWithOrder;
    assert.deepEqual(rest, {
      valid: true,
      code: 'LV-GIFT',
      applicable_to: empty,
      inapplicable_to: empty,
      metadata: {},
      gift: { amount: 1000, balance: 1000, effect: 'APPLY_TO_ORDER' },
      tracking_id: null,
    });
    assert.deepEqual(answered, {
      source_id: null,
      status: 'CREATED',
      amount: 500,
      initial_amount: 500,
      discount_amount: 200,
      items_discount_amount: 0,
      total_discount_amount: 200,
      total_amount: 300,
      applied_discount_amount: 200,
      items_applied_discount_amount: 0,
      total_applied_discount_amount: 200,
      items: [],
      metadata: {},
      object: 'order',
      created_at: answered.created_at,
      updated_at: null,
      customer_id: null,
      referrer_id: null,
      redemptions: {},
    });
    assert.equal(
      dbFingerprint(sqliteOf(server.deps)),
      before,
      'a validation without a customer writes nothing (its new order is not kept)',
    );
  });

  it("validates a loyalty card's reward: loyalty.points_cost and the reward with its assignment", async () => {
    const setup = await loyaltySetup(server, 'lv-loyalty', { points: 500, cost: 200 });
    const answer = await sdk.validations.validateVoucher(setup.member.code, {
      customer: { source_id: setup.customerSourceId },
      reward: { id: setup.reward.id },
    });
    assert.deepEqual(answer, {
      valid: true,
      code: setup.member.code,
      applicable_to: empty,
      inapplicable_to: empty,
      campaign: setup.program.name,
      campaign_id: setup.program.id,
      metadata: {},
      loyalty: { points_cost: 200 },
      reward: { id: setup.reward.id, assignment_id: setup.assignment.id, points: 200 },
      tracking_id: setup.customerSourceId,
    });
  });

  it('validates with the client-side validate(params): the query becomes the order, the customer and the metadata', async () => {
    const answer = await browser.validate({
      code: 'LV-PCT',
      amount: 1000,
      items: [{ quantity: 2, price: 300 } as never, { quantity: 1, price: 400 } as never],
      customer: { source_id: 'legacy-ann' },
    });
    const { order: answered, ...rest } = answer as unknown as ValidationWithOrder;
    assert.deepEqual(rest, {
      valid: true,
      code: 'LV-PCT',
      applicable_to: empty,
      inapplicable_to: empty,
      metadata: { shelf: 'a' },
      discount: { type: 'PERCENT', percent_off: 10 },
      start_date: '2020-01-01T00:00:00.000Z',
      expiration_date: '2099-01-01T00:00:00.000Z',
      tracking_id: 'legacy-ann',
    });
    const items = [
      { quantity: 2, price: 300 },
      { quantity: 1, price: 400 },
    ].map((item, i) => calculatedItem(answered.items[i]!.id, item));
    assert.deepEqual(answered, {
      source_id: null,
      status: 'CREATED',
      amount: 1000,
      initial_amount: 1000,
      discount_amount: 100,
      items_discount_amount: 0,
      total_discount_amount: 100,
      total_amount: 900,
      applied_discount_amount: 100,
      items_applied_discount_amount: 0,
      total_applied_discount_amount: 100,
      items,
      metadata: {},
      object: 'order',
      created_at: answered.created_at,
      updated_at: null,
      customer_id: customerId,
      referrer_id: null,
      customer: { id: customerId, object: 'customer' },
      redemptions: {},
    });
  });

  it('holds a LOCK session from the client-side query; another request finds the voucher taken, a redemption with the key uses it', async () => {
    await percentVoucher(server, 'LV-LOCK', { redemption: { quantity: 1 } });
    const held = (await browser.validate({
      code: 'LV-LOCK',
      amount: 1000,
      session_type: 'LOCK',
      session_key: 'ssn_legacy',
      session_ttl: 1,
      session_ttl_unit: 'HOURS',
    })) as unknown as Record<string, unknown>;
    assert.deepEqual(
      [held.valid, held.session],
      [true, { key: 'ssn_legacy', type: 'LOCK', ttl: 1, ttl_unit: 'HOURS' }],
    );
    const other = (await sdk.validations.validateVoucher('LV-LOCK', { order: { amount: 1000 } })) as unknown as Record<
      string,
      unknown
    >;
    assert.deepEqual([other.valid, other.reason], [false, 'quantity exceeded']);
    const redeemed = (await sdk.redemptions.redeem('LV-LOCK', {
      order: { amount: 1000 },
      session: { key: 'ssn_legacy' },
    } as never)) as unknown as LegacyRedemption;
    assert.deepEqual(
      [redeemed.result, redeemed.session, redeemed.voucher.redemption.redeemed_quantity],
      ['SUCCESS', { key: 'ssn_legacy' }, 1],
    );
  });

  const invalid = (
    code: string,
    key: string,
    message: string,
    requestId: string,
    metadata: Record<string, unknown> = {},
  ) => ({
    valid: false,
    code,
    error: { code: 400, key, message, details: message, request_id: requestId },
    tracking_id: null,
    metadata,
    reason: message,
  });

  it('answers an inactive voucher, an exceeded quantity and exceeded gift credits as valid: false (HTTP 200) with error and reason', async () => {
    await percentVoucher(server, 'LV-OFF', { active: false });
    await percentVoucher(server, 'LV-USED', { redemption: { quantity: 1 } });
    const redeemed = await server.request('POST', '/v1/redemptions', {
      body: { order: { amount: 100 }, redeemables: [{ object: 'voucher', id: 'LV-USED' }] },
    });
    assert.equal(redeemed.status, 200, redeemed.text);
    const before = dbFingerprint(sqliteOf(server.deps));
    const off = await server.request('POST', '/v1/vouchers/LV-OFF/validate', { body: { order: { amount: 1000 } } });
    assert.deepEqual(
      [off.status, off.body],
      [200, invalid('LV-OFF', 'voucher_disabled', 'voucher is disabled', requestIdOf(off))],
    );
    const used = await sdk.validations.validateVoucher('LV-USED', { order: { amount: 1000 } });
    assert.deepEqual(
      used,
      invalid(
        'LV-USED',
        'quantity_exceeded',
        'quantity exceeded',
        (used as unknown as RefusedValidation).error.request_id,
      ),
    );
    assert.match((used as unknown as RefusedValidation).error.request_id, /\S/);
    const credits = await browser.validate({ code: 'LV-GIFT', amount: 5000 } as never);
    assert.equal(credits.valid, true, 'the client-side query has no gift credits: the card applies its balance');
    const exceeded = await sdk.validations.validateVoucher('LV-GIFT', {
      order: { amount: 5000 },
      gift: { credits: 1500 },
    });
    assert.deepEqual(
      exceeded,
      invalid(
        'LV-GIFT',
        'gift_amount_exceeded',
        'Gift amount exceeded',
        (exceeded as unknown as RefusedValidation).error.request_id,
      ),
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('answers an unknown code 404 not_found, server side and client side, writing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const notFound = {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find voucher with id LV-NONE',
      resource_id: 'LV-NONE',
      resource_type: 'voucher',
    };
    for (const call of [
      () =>
        sdk.validations.validateVoucher('LV-NONE', { customer: { source_id: 'legacy-ann' }, order: { amount: 100 } }),
      () => browser.validate('LV-NONE'),
    ]) {
      await assert.rejects(call(), (error: Record<string, unknown>) => {
        const { code, key, message, details, resource_id, resource_type, request_id } = error;
        assert.deepEqual({ code, key, message, details, resource_id, resource_type }, notFound);
        assert.match(request_id as string, /^v-/);
        return true;
      });
    }
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('refuses malformed input with the documented error body, writing nothing', async () => {
    const before = dbFingerprint(sqliteOf(server.deps));
    const body = await server.request('POST', '/v1/vouchers/LV-PCT/validate', {
      body: { order: { amount: 'ten' }, gift: 5 },
    });
    assert.deepEqual(body.body, {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'order.amount must be an integer; gift must be an object',
      request_id: requestIdOf(body),
    });
    const query = await server.request('GET', '/client/v1/validate?code=LV-PCT&amount=ten&session_type=KEEP', {
      auth: 'client',
    });
    assert.deepEqual(query.body, {
      code: 400,
      key: 'invalid_query_params',
      message: 'Invalid query params',
      details: 'order.amount must be an integer; session.type must be LOCK',
      request_id: requestIdOf(query),
    });
    const noCode = await server.request('GET', '/client/v1/validate?code=&amount=100', { auth: 'client' });
    assert.deepEqual(
      [noCode.status, noCode.body.key, noCode.body.details],
      [400, 'invalid_query_params', 'Query parameter code is required (a voucher code)'],
    );
    const twice = await server.request('GET', '/client/v1/validate?code=LV-PCT&amount=1&amount=2', { auth: 'client' });
    assert.deepEqual([twice.status, twice.body.details], [400, 'Query parameter amount must be given once']);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });
});
