import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { queueHead } from '../../../src/modules/webhooks/queue.repository.js';
import { fanOutPending } from '../../../src/modules/webhooks/delivery.service.js';
import { fanOutEnd } from '../../../src/modules/webhooks/fanout.repository.js';
import { insertEvent } from '../../../src/modules/webhooks/webhooks.repository.js';
import { percentVoucher } from '../../api/redemptions/fixtures.js';
import { spawnServe, type SpawnedServer } from '../../support/cli.js';
import { postgresForTests } from '../../support/postgres.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { expectedSignature, sleep, startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { crashSuite } from './crash.suite.js';
import { deliverySuite } from './delivery.suite.js';

/**
 * Webhooks on PostgreSQL: the done-when tests (the suites SQLite runs too), and two
 * `promo serve` processes on one database sharing the queues.
 */
const found = await postgresForTests();
const postgres = found.skip === false ? found.server : undefined;
const database = () => (postgres as NonNullable<typeof postgres>).migratedDatabase();
after(async () => postgres?.close());

deliverySuite('webhook delivery on PostgreSQL', async () => startTestServer({ dbFile: await database() }), found.skip);
crashSuite('webhooks across a crash on PostgreSQL', database, found.skip);

describe('the sending order on PostgreSQL', { skip: found.skip }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ dbFile: await database() });
  });
  after(async () => server?.close());

  it('sends nothing written after a transaction still running, then by transaction, not by seq', async () => {
    const hook = (
      await server.request('POST', '/management/v1/projects/proj_promo/webhooks', {
        body: { target_url: 'http://127.0.0.1:9/never', events: ['redemption.succeeded'] },
      })
    ).body;
    await percentVoucher(server, 'PG-ORDER');
    const head = async () =>
      (await queueHead(server.deps.db, hook.id, 10)).map((d) => [d.event.entity_id, Number(d.seq)]);
    let redemption = '';
    await server.deps.db.transaction().execute(async (trx) => {
      // This transaction takes its id first; the redemption below commits after it began.
      await sql`SELECT pg_current_xact_id()`.execute(trx);
      const res = await server.request('POST', '/v1/vouchers/PG-ORDER/redemption', {
        body: { order: { amount: 1000 } },
      });
      assert.equal(res.status, 200);
      redemption = res.body.id;
      assert.equal(await fanOutEnd(server.deps.db, 10), undefined, 'its event waits while an older transaction runs');
      await fanOutPending(server.deps);
      assert.deepEqual(await head(), [], 'so no delivery is made for it yet');
      await insertEvent(trx, {
        id: 'evt_heldback',
        type: 'redemption.succeeded',
        data: '{}',
        entity_id: 'older-transaction',
        group_id: null,
        channel: 'API',
        created_at: new Date().toISOString(),
      });
    });
    // The horizon is the cluster's: a transaction in another database of the same server (a test
    // file running beside this one) holds it back too, for as long as it runs.
    let queued: Awaited<ReturnType<typeof head>> = [];
    for (const deadline = Date.now() + 20_000; queued.length < 2 && Date.now() < deadline; ) {
      await fanOutPending(server.deps);
      queued = await head();
      if (queued.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [older, newer] = queued;
    assert.deepEqual([older?.[0], newer?.[0]], ['older-transaction', redemption], 'the older transaction first');
    const eventSeqs = await server.deps.db
      .selectFrom('webhook_events')
      .select(['entity_id', 'seq'])
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      eventSeqs.map((e) => e.entity_id),
      [redemption, 'older-transaction'],
      'although its event took the higher seq',
    );
  });
});

const ENV = {
  PROMO_APP_ID: 'pg-hooks-app',
  PROMO_APP_TOKEN: 'pg-hooks-token',
  PROMO_WEBHOOK_POLL_MS: '20',
  PROMO_WEBHOOK_RETRY_BASE_MS: '30',
  PROMO_WEBHOOK_RETRY_MAX_MS: '100',
};
const CLIENTS_PER_SERVER = 3;
const REDEMPTIONS_PER_CLIENT = 20;

describe('webhooks on PostgreSQL across two promo serve processes', { skip: found.skip }, () => {
  let setup: TestServer;
  const servers: SpawnedServer[] = [];
  const receivers: Receiver[] = [];
  before(async () => {
    setup = await startTestServer({ dbFile: await database() });
    servers.push(await spawnServe(['--db', setup.dbFile], ENV));
    servers.push(await spawnServe(['--db', setup.dbFile], ENV));
  });
  after(async () => {
    for (const server of servers) await server.stop('SIGTERM');
    for (const receiver of receivers) await receiver.close();
    await setup?.close();
  });

  it('delivers each event exactly once per webhook between them, in the same order to both', async () => {
    // The second receiver refuses now and then: its retries must not reorder nor duplicate.
    receivers.push(await startReceiver(), await startReceiver((i) => (i % 7 === 3 ? 503 : 200)));
    const hooks = [];
    for (const receiver of receivers)
      hooks.push(
        (
          await servers[0]!.request('POST', '/management/v1/projects/proj_promo/webhooks', {
            target_url: receiver.url,
            events: ['redemption.succeeded'],
          })
        ).body,
      );
    await percentVoucher(setup, 'PG-HOOKS');
    // Clients on both servers at once; each client's redemptions one after the other.
    const byClient = await Promise.all(
      Array.from({ length: 2 * CLIENTS_PER_SERVER }, async (_, client) => {
        const ids: string[] = [];
        for (let i = 0; i < REDEMPTIONS_PER_CLIENT; i++) {
          const res = await servers[client % 2]!.request('POST', '/v1/vouchers/PG-HOOKS/redemption', {
            order: { amount: 1000 },
          });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          ids.push(res.body.id);
        }
        return ids;
      }),
    );
    const total = 2 * CLIENTS_PER_SERVER * REDEMPTIONS_PER_CLIENT;
    await receivers[0]!.waitFor(total, 60_000);
    const delivered = (r: Receiver) => r.received.filter((_, i) => r === receivers[0] || i % 7 !== 3);
    for (let waited = 0; delivered(receivers[1]!).length < total && waited < 60_000; waited += 50) await sleep(50);
    await sleep(500);

    const sequences = receivers.map((r) => delivered(r).map((got) => got.json.event.entity_id));
    for (const [i, sequence] of sequences.entries()) {
      assert.equal(sequence.length, total, `webhook ${i}: each event once`);
      assert.deepEqual(new Set(sequence), new Set(byClient.flat()), `webhook ${i}: every redemption`);
      // A client's redemptions are each committed before the next begins: they arrive in that order.
      for (const ids of byClient)
        assert.deepEqual(
          sequence.filter((id) => ids.includes(id)),
          ids,
        );
    }
    assert.deepEqual(sequences[0], sequences[1], 'one sending order, whichever server sends');
    for (const [i, receiver] of receivers.entries())
      for (const got of receiver.received)
        assert.equal(got.headers['x-voucherify-signature'], expectedSignature(hooks[i].secret, got.body));

    const deliveredBy = await Promise.all(
      servers.map(async (server) => {
        const text = await (await fetch(`${server.url}/metrics`)).text();
        return Number(/^promo_webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m.exec(text)?.[1]);
      }),
    );
    assert.equal(deliveredBy[0]! + deliveredBy[1]!, 2 * total, `delivered by each server: ${deliveredBy}`);
  });
});
