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
 * The order a redemption creates is written once, by its write stage, with the redemption's
 * figures (stageOrder, recordOrderRedemption): what it stores, and the events its insert
 * causes, are what an insert followed by the redemption's update used to leave. A new PAID
 * order is inserted before the plan as any upsert does (its paid-order seam may write what
 * the plan reads).
 */
describe("stackable redemptions: the request's new order", () => {
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
  const feed = async (customerId: string): Promise<Activity[]> =>
    (await get(`/v1/customers/${customerId}/activity?limit=100&order=created_at`)).data;

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

  it('inserts a new PAID order before the plan, as any upsert: created and paid events first, counted once', async () => {
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
    assert.equal((await get(`/v1/customers/${stored.customer_id}`)).summary.orders.total_count, 1);
  });
});
