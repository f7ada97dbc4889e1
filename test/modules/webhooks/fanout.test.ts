import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fanOutPending } from '../../../src/modules/webhooks/delivery.service.js';
import { type EventPlace, fanOut, fanOutEnd } from '../../../src/modules/webhooks/fanout.repository.js';
import { percentVoucher } from '../../api/redemptions/fixtures.js';
import { sql } from 'kysely';
import { onPostgres } from '../../support/engine.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { sleep } from '../../support/webhook-receiver.js';

/**
 * The outbox's fan-out, with no sender running: a change's transaction writes its one event
 * row whatever the number of webhooks; the deliveries are made after the commit, for the
 * webhooks as they were when the event was committed (a webhook added later gets none, one
 * deleted meanwhile none). Engine-neutral (PROMO_TEST_ENGINE=postgres).
 */
const base = '/management/v1/projects/proj_promo/webhooks';

describe('the webhooks outbox fan-out', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  const rows = async () => ({
    events: (
      await server.deps.db.selectFrom('webhook_events').select(['id', 'entity_id']).orderBy('seq').execute()
    ).map((e) => e.entity_id),
    deliveries: (
      await server.deps.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.seq', 'd.event_seq')
        .select(['d.webhook_id', 'e.entity_id', 'd.status'])
        .orderBy('d.seq')
        .execute()
    ).map((d) => [d.webhook_id, d.entity_id, d.status]),
  });
  const add = async (url: string) =>
    (await server.request('POST', base, { body: { target_url: url, events: ['redemption.succeeded'] } })).body;
  const redeem = async (code: string) => {
    await percentVoucher(server, code);
    const res = await server.request('POST', `/v1/vouchers/${code}/redemption`, { body: { order: { amount: 1000 } } });
    assert.equal(res.status, 200, res.text);
    return res.body.id as string;
  };

  /**
   * On PostgreSQL, until every event is below the horizon of running transactions: the fan-out
   * reads only there (docs/postgres.md, The webhook sender), and another test file's transaction
   * anywhere on the cluster (a CREATE DATABASE, say) holds the horizon back for a moment.
   */
  const belowHorizon = async () => {
    if (!onPostgres()) return;
    for (const started = Date.now(); Date.now() - started < 30_000; await sleep(20)) {
      const { rows } = await sql<{ below: boolean }>`
        SELECT coalesce(max(writer_xid), 0) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS below
        FROM webhook_events`.execute(server.deps.db);
      if (rows[0]?.below) return;
    }
    throw new Error('a transaction on the cluster held the horizon below the last event for 30 s');
  };

  it('writes one event row in the change, and its deliveries for the webhooks of its commit after it', async () => {
    const first = await add('http://127.0.0.1:9/first');
    const second = await add('http://127.0.0.1:9/second');
    const early = await redeem('FAN-1');
    assert.deepEqual(await rows(), { events: [early], deliveries: [] }, 'the redemption wrote its event alone');

    // A webhook added now gets nothing committed before it: the change fans out what waits first.
    await belowHorizon();
    const late = await add('http://127.0.0.1:9/late');
    assert.deepEqual(await rows(), {
      events: [early],
      deliveries: [
        [first.id, early, 'PENDING'],
        [second.id, early, 'PENDING'],
      ],
    });

    // A webhook deleted before the fan-out gets nothing more.
    const next = await redeem('FAN-2');
    await server.request('DELETE', `${base}/${second.id}`);
    await belowHorizon();
    await fanOutPending(server.deps);
    assert.deepEqual((await rows()).deliveries, [
      [first.id, early, 'PENDING'],
      [first.id, next, 'PENDING'],
      [late.id, next, 'PENDING'],
    ]);
    // Nothing waits: a fan-out now makes nothing.
    await fanOutPending(server.deps);
    assert.equal((await rows()).deliveries.length, 3);
  });

  it('never moves its place back: a sender that read an older end fans out nothing', async () => {
    const ends = async () => [await fanOutEnd(server.deps.db, 1), await fanOutEnd(server.deps.db, 10)];
    await redeem('FAN-3');
    await redeem('FAN-4');
    await belowHorizon();
    const [older, newer] = await ends();
    assert.ok(older && newer);
    const made = (await rows()).deliveries.length;
    const fanOutTo = (to: EventPlace) => server.deps.db.transaction().execute((trx) => fanOut(trx, to));
    assert.equal(await fanOutTo(newer), true);
    assert.equal((await rows()).deliveries.length, made + 4, 'two events, two webhooks');
    assert.equal(await fanOutTo(older), false, 'another sender passed that end already');
    assert.equal(await fanOutTo(newer), false);
    assert.equal((await rows()).deliveries.length, made + 4, 'nothing fanned out twice');
    assert.equal(await fanOutEnd(server.deps.db, 10), undefined);
  });
});
