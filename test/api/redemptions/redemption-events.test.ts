import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/server.js';
import { giftCard, ITEMS, percentVoucher } from './fixtures.js';

interface Activity {
  id: string;
  type: string;
  data: { data: Record<string, unknown> };
}

/**
 * A redemption's customer events name its record instead of copying it (sql/0038): the row
 * holds '{}' and the record's id, and the feed shows the record as it was written (the
 * answer's redemption), also after a rollback has changed the record since.
 */
describe('redemption events, stored by reference', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await percentVoucher(server, 'REF-PCT');
    await giftCard(server, 'REF-GIFT', 100_000);
  });
  after(() => server.close());

  const get = async (path: string) => {
    const res = await server.request('GET', path);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const feed = async (customerId: string, type: string): Promise<Activity[]> =>
    (await get(`/v1/customers/${customerId}/activity?limit=100&order=created_at&type=${type}`)).data;
  const storedRows = (customerId: string) =>
    server.deps.db
      .selectFrom('customer_events')
      .select(['type', 'data', 'redemption_id'])
      .where('customer_id', '=', customerId)
      .where('type', 'like', 'customer.redemption.%')
      .orderBy('seq')
      .execute();

  it('stores the record once, and shows it in the feed as written, before and after a rollback', async () => {
    const res = await server.request('POST', '/v1/redemptions', {
      body: {
        customer: { source_id: 'ref-buyer' },
        order: { items: ITEMS },
        redeemables: [
          { object: 'voucher', id: 'REF-PCT' },
          { object: 'voucher', id: 'REF-GIFT', gift: { credits: 300 } },
        ],
      },
    });
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
