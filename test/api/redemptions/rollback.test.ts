import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertMatchesReference, withoutNulls } from '../../support/openapi.js';
import { assertRedemptionMatches } from '../../support/redemption-shape.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../../support/server.js';
import { calculatedOrder, giftCard, ITEMS, percentVoucher } from './fixtures.js';

/**
 * POST /v1/redemptions/{id}/rollback and /v1/redemptions/{parentId}/rollbacks
 * (voucherify-facts 2.6) on a percent-off voucher plus a gift card redeemed on a 3-item order:
 * the whole answers, what comes back (the voucher's count, the card's credits as a refund row
 * tied to the redemption's row, the order's discounts and `redemptions` entry, the customer's
 * summary and activity), the records in the list, and every refusal with its whole body.
 */
/** A voucher transaction as the ledger reads it. */
interface LedgerRow {
  type: string;
  details?: { balance?: { amount?: number; points?: number } };
  related_transaction_id?: string | null;
}

/** A redemption record as the API answers it, with the fields a rollback is built from. */
interface RedemptionRecord {
  id: string;
  tracking_id?: string | null;
  amount?: number;
  gift?: { amount: number };
  related_object_type?: string;
  [field: string]: unknown;
}

describe('redemption rollbacks', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function redeemPair(tag: string) {
    const pct = await percentVoucher(server, `PCT-${tag}`);
    const gift = await giftCard(server, `GIFT-${tag}`, 1000);
    const res = await server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: `buyer-${tag}` },
        order: { items: ITEMS },
        metadata: { till: 1 },
        redeemables: [
          { object: 'voucher', id: pct.code },
          { object: 'voucher', id: gift.code, gift: { credits: 300 } },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    return { pct, gift, answer: res.body };
  }

  const get = async (path: string) => (await server.request('GET', path)).body;
  const ledger = async (code: string) =>
    (await get(`/v1/vouchers/${code}/transactions?limit=100`)).data.map((t: LedgerRow) => [
      t.type,
      t.details?.balance?.amount ?? t.details?.balance?.points,
      t.related_transaction_id ?? null,
    ]);

  /** A rollback record as answered: the redemption's identity, negated figures, the order after it. */
  function expectedRollback(
    original: RedemptionRecord,
    fields: { id: string; date: string; reason?: string; order: unknown; tracking_id?: string; metadata?: unknown },
  ) {
    const { related_redemptions: _r, session: _s, ...kept } = original;
    return {
      ...kept,
      id: fields.id,
      object: 'redemption_rollback',
      date: fields.date,
      tracking_id: fields.tracking_id ?? original.tracking_id,
      metadata: fields.metadata ?? null,
      redemption: original.id,
      ...(fields.reason ? { reason: fields.reason } : {}),
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      ...(original.amount !== undefined ? { amount: -original.amount } : {}),
      ...(original.gift ? { gift: { amount: -original.gift.amount } } : {}),
      order: fields.order,
      ...(original.related_object_type === 'redemption' ? { related_object_id: fields.id } : {}),
    };
  }

  it('rolls back one redemption of a stack: the credits come back tied to their row, the order loses its discount, the records say so', async () => {
    const { gift, answer } = await redeemPair('ONE');
    const child = answer.redemptions[1];
    const parentId = answer.parent_redemption.id;
    const res = await server.request(
      'POST',
      `/v1/redemptions/${child.id}/rollback?reason=query-reason&tracking_id=till-7`,
      { body: { reason: 'Returned', metadata: { desk: 2 } } },
    );
    assert.equal(res.status, 200, res.text);
    const rollback = res.body;
    assert.match(rollback.id, /^rr_/);
    const at = rollback.date;
    const stored = await get(`/v1/orders/${answer.order.id}`);
    const map = {
      [parentId]: {
        date: answer.parent_redemption.date,
        related_object_type: 'redemption',
        related_object_id: parentId,
        stacked: [answer.redemptions[0].id, child.id],
        rollback_stacked: [rollback.id],
      },
    };
    const order = calculatedOrder({ ...stored, updated_at: at }, { amount: 1000, discount: 100, applied: 0 }, map);
    assert.deepEqual(rollback, {
      ...expectedRollback(child, {
        id: rollback.id,
        date: at,
        reason: 'Returned',
        order,
        tracking_id: 'till-7',
        metadata: { desk: 2 },
      }),
      // The answer's voucher is the card whole, as GET /v1/vouchers/{code} shows it after the rollback.
      voucher: await get(`/v1/vouchers/${gift.code}`),
    });
    assert.deepEqual(
      (await get(`/v1/redemptions/${rollback.id}`)).voucher,
      child.voucher,
      'the record keeps the short one',
    );
    assertMatchesReference('POST', '/v1/redemptions/{redemptionId}/rollback', 200, withoutNulls(rollback));
    assertRedemptionMatches(rollback);

    // The original: ROLLED_BACK, with its rollback; the list and GET by id show the record.
    const original = await get(`/v1/redemptions/${child.id}`);
    assert.deepEqual(original, {
      ...child,
      status: 'ROLLED_BACK',
      related_redemptions: {
        rollbacks: [{ id: rollback.id, date: at, rollback_order_mode: 'WITH_ORDER' }],
        redemptions: [],
      },
    });
    assert.deepEqual(await get(`/v1/redemptions/${rollback.id}`), { ...rollback, voucher: child.voucher });
    const listed = await get(`/v1/redemptions?customer=buyer-ONE&limit=10`);
    assert.deepEqual(
      listed.redemptions.map((r: Record<string, string>) => [r.id, r.object, r.status]),
      [
        [rollback.id, 'redemption_rollback', 'SUCCEEDED'],
        [child.id, 'redemption', 'ROLLED_BACK'],
        [answer.redemptions[0].id, 'redemption', 'SUCCEEDED'],
        [parentId, 'redemption', 'SUCCEEDED'],
      ],
    );

    // What came back: the card's 300 (a refund row naming the redemption's row), one redemption of the card.
    const card = await get(`/v1/vouchers/${gift.code}`);
    assert.deepEqual([card.gift.balance, card.redemption.redeemed_quantity], [1000, 0]);
    const rows = (await get(`/v1/vouchers/${gift.code}/transactions?limit=100`)).data;
    const [refund, debit] = rows;
    assert.deepEqual(
      [
        refund.type,
        refund.details.balance.amount,
        refund.details.balance.balance,
        refund.related_transaction_id,
        debit.type,
      ],
      ['CREDITS_REFUND', 300, 1000, debit.id, 'CREDITS_REDEMPTION'],
    );
    assert.deepEqual([refund.details.redemption, refund.details.rollback], [{ id: child.id }, { id: rollback.id }]);
    assert.deepEqual([stored.discount_amount, stored.total_amount, stored.redemptions], [100, 900, map]);

    const customer = await get(`/v1/customers/${child.customer_id}`);
    const summary = customer.summary.redemptions;
    assert.deepEqual(
      [
        summary.total_redeemed,
        summary.total_rolled_back,
        summary.total_rollback_succeeded,
        summary.total_rollback_failed,
        summary.gift,
      ],
      [2, 1, 1, 0, { redeemed_amount: 0, amount_to_go: 0 }],
    );
    const activity = await get(`/v1/customers/${child.customer_id}/activity?limit=100`);
    const event = activity.data.find((e: { type: string }) => e.type === 'customer.redemption.rollback.succeeded');
    assert.deepEqual(event.data.data, {
      customer: child.customer,
      redemption_rollback: { ...rollback, voucher: child.voucher },
      redemption: original,
      voucher: child.voucher,
    });
  });

  it('rolls back a whole stack: every child, the parent, and the order as if nothing was redeemed', async () => {
    const { pct, gift, answer } = await redeemPair('STACK');
    const parent = answer.parent_redemption;
    const res = await server.request('POST', `/v1/redemptions/${parent.id}/rollbacks`, {
      body: { reason: 'Cancelled' },
    });
    assert.equal(res.status, 200, res.text);
    const { rollbacks, parent_rollback: parentRollback, order } = res.body;
    const at = parentRollback.date;
    const stored = await get(`/v1/orders/${answer.order.id}`);
    const map = {
      [parent.id]: {
        date: parent.date,
        related_object_type: 'redemption',
        related_object_id: parent.id,
        stacked: answer.redemptions.map((r: { id: string }) => r.id),
        rollback_stacked: rollbacks.map((r: { id: string }) => r.id),
        rollback_id: parentRollback.id,
        rollback_date: at,
      },
    };
    const after = calculatedOrder({ ...stored, updated_at: at }, { amount: 1000, discount: 0, applied: 0 }, map);
    assert.deepEqual(res.body, {
      rollbacks: answer.redemptions.map((child: RedemptionRecord, i: number) =>
        expectedRollback(child, { id: rollbacks[i].id, date: at, reason: 'Cancelled', order: after }),
      ),
      parent_rollback: expectedRollback(parent, { id: parentRollback.id, date: at, reason: 'Cancelled', order: after }),
      order: after,
    });
    assertMatchesReference('POST', '/v1/redemptions/{parentRedemptionId}/rollbacks', 200, withoutNulls(res.body));
    for (const record of [...rollbacks, parentRollback]) assertRedemptionMatches(record);
    assert.deepEqual([stored.discount_amount ?? 0, stored.total_amount], [0, 1000]);
    const statuses = await Promise.all(
      [parent.id, ...answer.redemptions.map((r: { id: string }) => r.id)].map(
        async (id) => (await get(`/v1/redemptions/${id}`)).status,
      ),
    );
    assert.deepEqual(statuses, ['ROLLED_BACK', 'ROLLED_BACK', 'ROLLED_BACK']);
    const [pctAfter, giftAfter] = [await get(`/v1/vouchers/${pct.code}`), await get(`/v1/vouchers/${gift.code}`)];
    assert.deepEqual(
      [pctAfter.redemption.redeemed_quantity, giftAfter.redemption.redeemed_quantity, giftAfter.gift.balance],
      [0, 0, 1000],
    );
    assert.deepEqual(
      (await ledger(gift.code)).map((row: unknown[]) => row[0]),
      ['CREDITS_REFUND', 'CREDITS_REDEMPTION', 'CREDITS_ADDITION'],
    );
  });

  it("keeps the order's figures with redeemables_rollback_order_mode WITHOUT_ORDER, and still records the rollback on it", async () => {
    const rules = await server.request('GET', '/v1/stacking-rules');
    assert.equal(rules.status, 200, rules.text);
    const put = await server.request('PUT', '/v1/stacking-rules', {
      body: { ...withoutIds(rules.body), redeemables_rollback_order_mode: 'WITHOUT_ORDER' },
    });
    assert.equal(put.status, 200, put.text);
    try {
      const { answer } = await redeemPair('KEEP');
      const res = await server.request('POST', `/v1/redemptions/${answer.parent_redemption.id}/rollbacks`, {
        body: {},
      });
      assert.equal(res.status, 200, res.text);
      const stored = await get(`/v1/orders/${answer.order.id}`);
      assert.deepEqual([stored.discount_amount, stored.total_amount, res.body.order.total_amount], [400, 600, 600]);
      assert.equal(stored.redemptions[answer.parent_redemption.id].rollback_id, res.body.parent_rollback.id);
      const original = await get(`/v1/redemptions/${answer.redemptions[0].id}`);
      assert.deepEqual(original.related_redemptions.rollbacks, [
        { id: res.body.rollbacks[0].id, date: res.body.parent_rollback.date, rollback_order_mode: 'WITHOUT_ORDER' },
      ]);
    } finally {
      await server.request('PUT', '/v1/stacking-rules', { body: withoutIds(rules.body) });
    }
  });

  it('refuses a second rollback with already_rolled_back and records it as a failed rollback (rrf_)', async () => {
    const { gift, answer } = await redeemPair('TWICE');
    const child = answer.redemptions[1];
    assert.equal((await server.request('POST', `/v1/redemptions/${child.id}/rollback`)).status, 200);
    const res = await server.request('POST', `/v1/redemptions/${child.id}/rollback`, { body: { reason: 'again' } });
    const failedId = res.body.resource_id;
    assert.match(failedId, /^rrf_/);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'already_rolled_back',
        message: 'Already rolled back',
        details: 'Already rolled back',
        resource_id: failedId,
        resource_type: 'redemption_rollback',
      }),
    );
    const failed = await get(`/v1/redemptions/${failedId}`);
    const { related_redemptions: _r, amount: _a, gift: _g, ...kept } = child;
    assert.deepEqual(failed, {
      ...kept,
      id: failedId,
      object: 'redemption_rollback',
      date: failed.date,
      metadata: null,
      redemption: child.id,
      reason: 'again',
      result: 'FAILURE',
      status: 'FAILED',
      failure_code: 'already_rolled_back',
      failure_message: 'Already rolled back',
      order: null,
    });
    assertRedemptionMatches(failed);
    // Given back once only.
    assert.equal((await get(`/v1/vouchers/${gift.code}`)).gift.balance, 1000);
    const summary = (await get(`/v1/customers/${child.customer_id}`)).summary.redemptions;
    assert.deepEqual(
      [summary.total_rolled_back, summary.total_rollback_succeeded, summary.total_rollback_failed],
      [1, 1, 1],
    );
    const types = (await get(`/v1/customers/${child.customer_id}/activity?limit=100`)).data.map(
      (e: { type: string }) => e.type,
    );
    assert.equal(types.filter((t: string) => t === 'customer.redemption.rollback.failed').length, 1);
    // A stack whose parent was rolled back: refused the same way.
    const parentId = answer.parent_redemption.id;
    assert.equal((await server.request('POST', `/v1/redemptions/${parentId}/rollbacks`)).status, 200);
    const again = await server.request('POST', `/v1/redemptions/${parentId}/rollbacks`);
    assert.deepEqual(
      again.body,
      errorBody(again, {
        code: 400,
        key: 'already_rolled_back',
        message: 'Already rolled back',
        details: 'Already rolled back',
        resource_id: again.body.resource_id,
        resource_type: 'redemption_rollback',
      }),
    );
  });

  it('refuses the wrong record for each endpoint (invalid_redemption, invalid_redemption_parent, 404) and writes nothing', async () => {
    const { answer } = await redeemPair('WRONG');
    const parentId = answer.parent_redemption.id;
    const childId = answer.redemptions[0].id;
    const toSingle = await server.request('POST', `/v1/redemptions/${parentId}/rollback`);
    assert.deepEqual(
      toSingle.body,
      errorBody(toSingle, {
        code: 400,
        key: 'invalid_redemption',
        message: 'Invalid redemption',
        details: `${parentId} is a stacked redemption: roll it back with POST /v1/redemptions/${parentId}/rollbacks`,
      }),
    );
    const toStacked = await server.request('POST', `/v1/redemptions/${childId}/rollbacks`);
    assert.deepEqual(
      toStacked.body,
      errorBody(toStacked, {
        code: 400,
        key: 'invalid_redemption_parent',
        message: 'Invalid redemption parent',
        details: `${childId} is not the parent of a stacked redemption: roll it back with POST /v1/redemptions/${childId}/rollback`,
      }),
    );
    const unknown = await server.request('POST', '/v1/redemptions/r_nothing/rollback');
    assert.deepEqual(unknown.body, notFoundBody(unknown, 'redemption', 'r_nothing'));
    const badBody = await server.request('POST', `/v1/redemptions/${childId}/rollback`, {
      body: { reason: 5, metadata: 'x' },
    });
    assert.deepEqual(
      badBody.body,
      errorBody(badBody, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: badBody.body.details,
      }),
    );
    assert.equal((await get(`/v1/redemptions/${childId}`)).status, 'SUCCEEDED');
    assert.equal(
      (
        await get(
          '/v1/redemptions?filters[object][conditions][$is]=redemption_rollback&filters[parent_redemption_id][conditions][$is]=' +
            childId,
        )
      ).total,
      0,
    );
  });

  it('refuses another customer or order with invalid_customer / invalid_order, recorded as failed rollbacks', async () => {
    const { answer } = await redeemPair('WHO');
    const child = answer.redemptions[0];
    const other = await server.request('POST', `/v1/redemptions/${child.id}/rollback`, {
      body: { customer: { source_id: 'someone-else' } },
    });
    assert.deepEqual(
      other.body,
      errorBody(other, {
        code: 400,
        key: 'invalid_customer',
        message: 'Invalid customer',
        details: 'Customer is not related with redemption.',
        resource_id: other.body.resource_id,
        resource_type: 'redemption_rollback',
      }),
    );
    assert.match(other.body.resource_id ?? '', /^rrf_/);
    const order = await server.request('POST', `/v1/redemptions/${child.id}/rollback`, {
      body: { order: { id: 'ord_other' } },
    });
    assert.deepEqual(
      order.body,
      errorBody(order, {
        code: 400,
        key: 'invalid_order',
        message: 'Invalid order',
        details: 'Order is not related with redemption.',
        resource_id: order.body.resource_id,
        resource_type: 'redemption_rollback',
      }),
    );
    assert.deepEqual((await get(`/v1/redemptions/${other.body.resource_id}`)).failure_code, 'invalid_customer');
    // The redemption's own customer (by source_id, with a new name) and order are accepted.
    const own = await server.request('POST', `/v1/redemptions/${child.id}/rollback`, {
      body: { customer: { source_id: 'buyer-WHO', name: 'Ann' }, order: { id: answer.order.id } },
    });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(own.body.customer, { ...child.customer, name: 'Ann' });
    assert.equal((await get(`/v1/customers/${child.customer_id}`)).name, 'Ann');
  });
});

function withoutIds(rules: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, created_at: _c, updated_at: _u, ...rest } = rules;
  return rest;
}
