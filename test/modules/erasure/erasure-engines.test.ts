import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteAnswersMentioning } from '../../../src/modules/idempotency/idempotency-erasure.repository.js';
import { reduceReferrer } from '../../../src/modules/events/events-erasure.repository.js';
import { eraseCustomerSnapshots } from '../../../src/modules/redemptions/redemptions-erasure.repository.js';
import { percentVoucher } from '../../api/redemptions/fixtures.js';
import { postgresForTests } from '../../support/postgres.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const postgres = await postgresForTests();

/** The same erasure on each engine: SQLite (a file), and PostgreSQL when there is one (skipped, saying why, otherwise). */
const ENGINES = [
  { engine: 'SQLite', skip: false as const, location: async () => undefined },
  { engine: 'PostgreSQL', skip: postgres.skip, location: async () => postgres.server?.migratedDatabase() },
];

const event = (id: string, customerId: string, data: unknown) => ({
  id,
  customer_id: customerId,
  type: 'customer.referred',
  category: 'EFFECT' as const,
  data: JSON.stringify(data),
  channel: 'API' as const,
  group_id: `grp_${id}`,
  created_at: '2026-11-29T00:00:00.000Z',
});

/**
 * The erasure statements a permanent deletion runs on the customer's traces (the events'
 * embedded referrer, the redemption snapshots, the stored idempotent answers), in their JSON
 * and substring terms of each engine (db/dialect.ts). The whole deletion, job data included
 * (src/jobs/erasure.repository.ts), runs on both engines in test/api/permanent-deletion.test.ts;
 * these are its other JSON statements, side by side.
 */
for (const { engine, skip, location } of ENGINES)
  describe(`erasing a customer's traces on ${engine}`, { skip }, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ dbFile: await location() });
    });
    after(async () => {
      await server?.close();
      if (engine === 'PostgreSQL') await postgres.server?.close();
    });

    it('leaves the customer as {id, object} in snapshots and referrers, and forgets answers that name them', async () => {
      const zed = await server.request('POST', '/v1/customers', {
        body: { source_id: 'zed', name: 'Zed', email: 'zed@example.org' },
        headers: { 'Idempotency-Key': 'zed-create' },
      });
      assert.equal(zed.status, 200, zed.text);
      await percentVoucher(server, 'ERASE-10');
      const redeemed = await server.request('POST', '/v1/redemptions', {
        body: {
          customer: { source_id: 'zed' },
          order: { source_id: 'zed-order', amount: 1000 },
          redeemables: [{ object: 'voucher', id: 'ERASE-10' }],
        },
      });
      assert.equal(redeemed.status, 200, redeemed.text);
      const redemptionId = redeemed.body.redemptions[0].id;
      const referrer = { id: zed.body.id, name: 'Zed', email: 'zed@example.org', object: 'customer' };
      await server.deps.db
        .insertInto('customer_events')
        .values([
          event('evt_a', 'cust_amy', { before: 1, referrer, after: [2, 'x'] }),
          event('evt_b', 'cust_amy', { referrer: { id: 'cust_other', name: 'Other' } }),
          event('evt_c', 'cust_bob', { referrer }),
        ])
        .execute();

      const erased = await server.deps.db.transaction().execute(async (trx) => {
        const snapshots = await eraseCustomerSnapshots(trx, zed.body.id);
        await reduceReferrer(trx, ['cust_amy'], zed.body.id);
        return { snapshots, answers: await deleteAnswersMentioning(trx, zed.body.id) };
      });

      // The redemption and its one child record.
      assert.deepEqual(erased, { snapshots: 2, answers: 1 });
      const redemption = (await server.request('GET', `/v1/redemptions/${redemptionId}`)).body;
      const bare = { id: zed.body.id, object: 'customer' };
      assert.deepEqual([redemption.customer, redemption.tracking_id, redemption.order.customer], [bare, null, bare]);
      const events = await server.deps.db
        .selectFrom('customer_events')
        .select(['id', 'data'])
        .where('id', 'in', ['evt_a', 'evt_b', 'evt_c'])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        events.map((e) => ({ id: e.id, data: JSON.parse(e.data) })),
        [
          { id: 'evt_a', data: { before: 1, referrer: bare, after: [2, 'x'] } },
          { id: 'evt_b', data: { referrer: { id: 'cust_other', name: 'Other' } } },
          { id: 'evt_c', data: { referrer } },
        ],
      );
      const retried = await server.request('POST', '/v1/customers', {
        body: { source_id: 'zed-2' },
        headers: { 'Idempotency-Key': 'zed-create' },
      });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.body.source_id, 'zed-2', 'the stored answer was forgotten: the key ran anew');
    });
  });
