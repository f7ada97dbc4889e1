import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../../src/lib/clock.js';
import { loopOptions, startDeliveryLoop } from '../../../src/modules/webhooks/delivery-loop.service.js';
import { fanOutPending } from '../../../src/modules/webhooks/delivery.service.js';
import { DEFAULT_RETENTION, retentionFromEnv } from '../../../src/modules/webhooks/retention.sweep.js';
import { sweepRegistry } from '../../../src/root/sweep-registry.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { sqliteOf } from '../../support/sqlite.js';
import { type Receiver, sleep, startReceiver } from '../../support/webhook-receiver.js';

/**
 * The webhooks' retention sweep, run as the job runner runs it (through the sweep registry),
 * on deliveries made by the real sender to real receivers, under a clock the test moves:
 * delivered ones go after 7 days, failed ones after 30, events once nothing is kept for them,
 * and whatever is still owed stays.
 */
// Now, not a date of its own: on PostgreSQL the sender stamps finished_at with the database's
// clock (servers share it), so the test's clock starts where the database's is; it then moves
// days ahead, far past the seconds the setup takes.
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const base = '/management/v1/projects/proj_promo/webhooks';

describe('the webhooks retention sweep', () => {
  const clock = fixedClock(T0);
  let server: TestServer;
  const receivers: Receiver[] = [];
  let okHook: { id: string };
  let failingHook: { id: string };

  const sweep = async () => {
    const entry = sweepRegistry.find((s) => s.name === 'webhook-retention');
    assert.ok(entry, 'registered with the other sweeps');
    return (await entry.run())(server.deps, new AbortController().signal);
  };
  /** Every delivery (webhook, status) in seq order, and every event (type), as stored. */
  const stored = () => {
    const sqlite = sqliteOf(server.deps);
    return {
      deliveries: sqlite
        .prepare(
          `SELECT w.label, d.status, e.type FROM webhook_deliveries d
           JOIN (SELECT id, CASE id WHEN ? THEN 'ok' WHEN ? THEN 'failing' ELSE 'other' END AS label FROM webhooks) w ON w.id = d.webhook_id
           JOIN webhook_events e ON e.seq = d.event_seq ORDER BY d.seq`,
        )
        .all(okHook.id, failingHook.id)
        .map((r) => Object.values(r as object).join(' ')),
      events: sqlite.prepare('SELECT type FROM webhook_events ORDER BY seq').pluck().all(),
    };
  };
  const redeem = async (code: string) => {
    await server.request('POST', `/v1/vouchers/${code}`, {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    const res = await server.request('POST', `/v1/vouchers/${code}/redemption`, { body: { order: { amount: 1000 } } });
    assert.equal(res.status, 200, res.text);
  };

  before(async () => {
    server = await startTestServer({ clock });
    receivers.push(await startReceiver(), await startReceiver(() => 500), await startReceiver());
    const add = async (url: string, events: string[]) =>
      (await server.request('POST', base, { body: { target_url: url, events } })).body;
    okHook = await add(receivers[0]!.url, ['redemption.succeeded']);
    failingHook = await add(receivers[1]!.url, ['redemption.succeeded']);
    const removed = await add(receivers[2]!.url, ['publication.succeeded']);
    // Given up at the first failure: the clock does not move while the sender runs.
    const loop = startDeliveryLoop(server.deps, loopOptions({ retryBaseMs: 30, giveUpMs: 1, pollMs: 20 }));
    await redeem('KEEP-1');
    await redeem('KEEP-2');
    await server.request('POST', '/v1/publications', {
      body: { customer: { source_id: 'retained' }, voucher: 'KEEP-1' },
    });
    await receivers[0]!.waitFor(2);
    await receivers[1]!.waitFor(2);
    await receivers[2]!.waitFor(1);
    await sleep(200);
    await loop.stop();
    // A webhook deleted takes its deliveries with it: its event is left with none.
    await server.request('DELETE', `${base}/${removed.id}`);
    // Fanned out, and sent by no sender: owed, and kept however old.
    await redeem('OWED-1');
    await fanOutPending(server.deps);
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await server.close();
  });

  it('keeps everything younger than the retention', async () => {
    const everything = {
      deliveries: [
        'ok DELIVERED redemption.succeeded',
        'failing FAILED redemption.succeeded',
        'ok DELIVERED redemption.succeeded',
        'failing FAILED redemption.succeeded',
        'ok PENDING redemption.succeeded',
        'failing PENDING redemption.succeeded',
      ],
      events: ['redemption.succeeded', 'redemption.succeeded', 'publication.succeeded', 'redemption.succeeded'],
    };
    assert.deepEqual(stored(), everything);
    clock.advance(DEFAULT_RETENTION.deliveredMs - 60_000);
    assert.equal(await sweep(), 0);
    assert.deepEqual(stored(), everything);
  });

  it('deletes delivered deliveries after 7 days and the events left with none; keeps failed and owed ones', async () => {
    clock.set(new Date(Date.parse(T0) + 7 * DAY + HOUR));
    assert.equal(await sweep(), 3);
    assert.deepEqual(stored(), {
      deliveries: [
        'failing FAILED redemption.succeeded',
        'failing FAILED redemption.succeeded',
        'ok PENDING redemption.succeeded',
        'failing PENDING redemption.succeeded',
      ],
      events: ['redemption.succeeded', 'redemption.succeeded', 'redemption.succeeded'],
    });
    const shown = (await server.request('GET', `${base}/${okHook.id}`)).body.deliveries;
    assert.deepEqual(
      shown.map((d: { status: string }) => d.status),
      ['PENDING'],
    );
  });

  it('deletes failed deliveries after 30 days and their events; never what is still owed', async () => {
    clock.set(new Date(Date.parse(T0) + 30 * DAY + HOUR));
    assert.equal(await sweep(), 4);
    assert.deepEqual(stored(), {
      deliveries: ['ok PENDING redemption.succeeded', 'failing PENDING redemption.succeeded'],
      events: ['redemption.succeeded'],
    });
    clock.set(new Date(Date.parse(T0) + 365 * DAY));
    assert.equal(await sweep(), 0);
  });

  it('takes its retention from PROMO_WEBHOOK_RETENTION_MS and PROMO_WEBHOOK_FAILED_RETENTION_MS', () => {
    assert.deepEqual(retentionFromEnv(), { deliveredMs: 7 * DAY, failedMs: 30 * DAY });
    process.env.PROMO_WEBHOOK_RETENTION_MS = '3600000';
    process.env.PROMO_WEBHOOK_FAILED_RETENTION_MS = '86400000';
    try {
      assert.deepEqual(retentionFromEnv(), { deliveredMs: 3_600_000, failedMs: DAY });
      process.env.PROMO_WEBHOOK_FAILED_RETENTION_MS = '1.5';
      assert.throws(retentionFromEnv, {
        message: 'Invalid PROMO_WEBHOOK_FAILED_RETENTION_MS: 1.5 (milliseconds, a positive integer)',
      });
    } finally {
      delete process.env.PROMO_WEBHOOK_RETENTION_MS;
      delete process.env.PROMO_WEBHOOK_FAILED_RETENTION_MS;
    }
  });
});
