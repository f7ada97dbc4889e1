import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/server.js';
import { giftCard, ITEMS, percentVoucher } from './fixtures.js';

interface Activity {
  id: string;
  type: string;
  data: { data: { order?: Record<string, unknown> } & Record<string, unknown> };
}

/**
 * What a stacked redemption writes once (issue 28, nothing twice):
 * - the order it creates, by its write stage, with the redemption's figures (stageOrder,
 *   recordOrderRedemption): what it stores, and the events its insert causes, are what an insert
 *   followed by the redemption's update used to leave. A new PAID order is inserted before the
 *   plan as any upsert does (its paid-order seam may write what the plan reads);
 * - its customer events, which name its record instead of copying it (sql/0038): the row holds
 *   '{}' and the record's id, and the feed shows the record as it was written (the answer's
 *   redemption), also after a rollback has changed the record since.
 */
describe('stackable redemptions: written once', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await percentVoucher(server, 'ONCE-PCT');
    await giftCard(server, 'ONCE-GIFT', 100_000);
  });
  after(() => server.close());

  const redeem = (source: string, order: Record<string, unknown>) =>
    server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: source },
        order,
        redeemables: [
          { object: 'voucher', id: 'ONCE-PCT' },
          { object: 'voucher', id: 'ONCE-GIFT', gift: { credits: 300 } },
        ],
      },
    });
  const get = async (path: string) => {
    const res = await server.request('GET', path);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const feed = async (customerId: string, type?: string): Promise<Activity[]> =>
    (await get(`/v1/customers/${customerId}/activity?limit=100&order=created_at${type ? `&type=${type}` : ''}`)).data;
  const storedRows = (customerId: string) =>
    server.deps.db
      .selectFrom('customer_events')
      .select(['type', 'data', 'redemption_id'])
      .where('customer_id', '=', customerId)
      .where('type', 'like', 'customer.redemption.%')
      .orderBy('seq')
      .execute();

  it('stores the order with its discounts and its created event as POST /v1/orders writes it, before the redemption events', async () => {
    const res = await redeem('once-new', { items: ITEMS, metadata: { till: 4 } });
    assert.equal(res.status, 200, res.text);
    const { order } = res.body;
    const stored = await get(`/v1/orders/${order.id}`);
    const at = res.body.parent_redemption.date;
    assert.deepEqual(
      {
        amount: stored.amount,
        discount_amount: stored.discount_amount,
        total_amount: stored.total_amount,
        redemptions: Object.keys(stored.redemptions),
        created_at: stored.created_at,
        updated_at: stored.updated_at,
      },
      {
        amount: 1000,
        discount_amount: 100 + 300,
        total_amount: 600,
        redemptions: [res.body.parent_redemption.id],
        created_at: at,
        updated_at: at,
      },
    );
    const events = await feed(stored.customer_id);
    assert.deepEqual(
      events.map((event) => event.type),
      ['customer.created', 'customer.order.created', 'customer.redemption.succeeded', 'customer.redemption.succeeded'],
    );

    // The same order created by POST /v1/orders for the same customer: its event embeds the
    // order as created, before any redemption; the redemption's order event must equal it.
    const plain = await server.request('POST', '/v1/orders', {
      body: { customer: { source_id: 'once-new' }, items: ITEMS, metadata: { till: 4 } },
    });
    assert.equal(plain.status, 200, plain.text);
    const created = (await feed(stored.customer_id)).filter((event) => event.type === 'customer.order.created');
    const [redeemed, alone] = created.map((event) => event.data.data) as [
      Activity['data']['data'],
      Activity['data']['data'],
    ];
    const plainOrder = alone.order as { items: Array<Record<string, unknown>> } & Record<string, unknown>;
    // Nothing of the redemption (no discounts, no redemptions map): the order as sent, its item ids the stored ones.
    assert.deepEqual(redeemed, {
      ...alone,
      order: {
        ...plainOrder,
        id: order.id,
        created_at: at,
        items: plainOrder.items.map((item, i) => ({ ...item, id: stored.items[i].id })),
      },
    });
    assert.deepEqual([plainOrder.amount, plainOrder.total_amount, plainOrder.discount_amount], [1000, 1000, undefined]);
  });

  it('inserts a new PAID order before the plan, as any upsert: created and paid events first, counted once, after its discounts', async () => {
    const res = await redeem('once-paid', { items: ITEMS, status: 'PAID' });
    assert.equal(res.status, 200, res.text);
    const stored = await get(`/v1/orders/${res.body.order.id}`);
    assert.deepEqual(
      [stored.status, stored.amount, stored.discount_amount, stored.total_amount],
      ['PAID', 1000, 400, 600],
    );
    assert.deepEqual(Object.keys(stored.redemptions), [res.body.parent_redemption.id]);
    assert.deepEqual(
      (await feed(stored.customer_id)).map((event) => event.type),
      [
        'customer.created',
        'customer.order.created',
        'customer.order.paid',
        'customer.redemption.succeeded',
        'customer.redemption.succeeded',
      ],
    );
    // summary.orders counts what the customer paid, after discounts: the redemption's, then without the rolled-back card's.
    const orders = async () => (await get(`/v1/customers/${stored.customer_id}`)).summary.orders;
    const counted = (total: number) => ({
      total_amount: total,
      total_count: 1,
      average_amount: total,
      last_order_amount: total,
      last_order_date: stored.created_at,
    });
    assert.deepEqual(await orders(), counted(600));
    const gift = res.body.redemptions[1];
    const rollback = await server.request('POST', `/v1/redemptions/${gift.id}/rollback`, { body: {} });
    assert.equal(rollback.status, 200, rollback.text);
    assert.equal((await get(`/v1/orders/${stored.id}`)).total_amount, 900);
    assert.deepEqual(await orders(), counted(900));
  });

  it('stores the record once, and shows it in the feed as written, before and after a rollback', async () => {
    const res = await redeem('ref-buyer', { items: ITEMS });
    assert.equal(res.status, 200, res.text);
    const [pct, gift] = res.body.redemptions;
    const customerId = pct.customer_id;
    assert.deepEqual(await storedRows(customerId), [
      { type: 'customer.redemption.succeeded', data: '{}', redemption_id: pct.id },
      { type: 'customer.redemption.succeeded', data: '{}', redemption_id: gift.id },
    ]);
    const expected = res.body.redemptions.map((redemption: Record<string, unknown>) => ({
      customer: redemption.customer,
      redemption,
      voucher: redemption.voucher,
    }));
    const shown = async () => (await feed(customerId, 'customer.redemption.succeeded')).map((event) => event.data.data);
    assert.equal(JSON.stringify(await shown()), JSON.stringify(expected));

    const rollback = await server.request('POST', `/v1/redemptions/${gift.id}/rollback`, { body: { reason: 'back' } });
    assert.equal(rollback.status, 200, rollback.text);
    assert.equal((await get(`/v1/redemptions/${gift.id}`)).status, 'ROLLED_BACK');
    assert.equal(JSON.stringify(await shown()), JSON.stringify(expected), 'the event shows the record as written');
  });

  it('stores a refused request’s failed record once too', async () => {
    const res = await server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: 'ref-refused' },
        order: { items: ITEMS },
        redeemables: [{ object: 'voucher', id: 'REF-NONE' }],
      },
    });
    assert.equal(res.status, 400, res.text);
    const failed = await get(`/v1/redemptions/${res.body.resource_id}`);
    assert.deepEqual(await storedRows(failed.customer_id), [
      { type: 'customer.redemption.failed', data: '{}', redemption_id: failed.id },
    ]);
    const [event] = await feed(failed.customer_id, 'customer.redemption.failed');
    assert.equal(
      JSON.stringify(event?.data.data),
      JSON.stringify({ customer: failed.customer, redemption: failed, voucher: failed.voucher }),
    );
  });
});
