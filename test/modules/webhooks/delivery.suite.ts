import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loopOptions, startDeliveryLoop } from '../../../src/modules/webhooks/delivery-loop.service.js';
import { onRedemptionsSucceeded } from '../../../src/modules/redemptions/redemption.seam.js';
import { percentVoucher } from '../../api/redemptions/fixtures.js';
import type { TestServer } from '../../support/server.js';
import {
  type Delivery,
  expectedSignature,
  freePort,
  sleep,
  startReceiver,
  type Receiver,
} from '../../support/webhook-receiver.js';

/**
 * Delivery through the real app and the real sender (the loop `promo serve` runs), to real
 * receivers on port 0, with retry timing in milliseconds: the done-when tests. The
 * same suite runs on SQLite (delivery.test.ts) and on PostgreSQL (postgres.test.ts), on the
 * server `open` starts.
 */
const base = '/management/v1/projects/proj_promo/webhooks';
const fast = (giveUpMs = 60_000) =>
  loopOptions({ timeoutMs: 2000, retryBaseMs: 30, retryMaxMs: 150, giveUpMs, pollMs: 20 });

export function deliverySuite(title: string, open: () => Promise<TestServer>, skip: string | false = false): void {
  describe(title, { skip }, () => {
    let server: TestServer;
    let loop: { stop(): Promise<void> };
    const receivers: Receiver[] = [];
    let codes = 0;

    before(async () => {
      server = await open();
      loop = startDeliveryLoop(server.deps, fast());
    });
    after(async () => {
      await loop.stop();
      for (const r of receivers) await r.close();
      await server.close();
    });

    const receiver = async (answer?: (i: number) => number, port?: number) => {
      const r = await startReceiver(answer, port);
      receivers.push(r);
      return r;
    };
    const addWebhook = async (url: string, events = ['redemption.succeeded']) =>
      (await server.request('POST', base, { body: { target_url: url, events } })).body;
    const removeWebhook = (id: string) => server.request('DELETE', `${base}/${id}`);
    const redeem = async () => {
      const code = `HOOK-${++codes}`;
      await percentVoucher(server, code);
      const res = await server.request('POST', `/v1/vouchers/${code}/redemption`, {
        body: { customer: { source_id: 'hook-customer' }, order: { amount: 1000 } },
      });
      assert.equal(res.status, 200, res.text);
      return res;
    };
    // Through Kysely, so the file runs on either engine (PROMO_TEST_ENGINE=postgres).
    const countRows = async (table: 'webhook_events' | 'webhook_deliveries') =>
      Number(
        (
          await server.deps.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const outboxRows = async () => ({
      events: await countRows('webhook_events'),
      deliveries: await countRows('webhook_deliveries'),
    });

    it('posts one signed v2024 envelope per redemption, which verifies with the secret', async () => {
      const r = await receiver();
      const hook = await addWebhook(r.url);
      const res = await redeem();
      const [got] = await r.waitFor(1);
      await sleep(300);
      assert.equal(r.received.length, 1, 'exactly one delivery');
      assert.equal(got!.headers['x-voucherify-signature'], expectedSignature(hook.secret, got!.body));
      assert.equal(got!.headers['content-type'], 'application/json');
      // The legacy endpoint answers the whole voucher; the event carries the redemption as stored (its voucher in short).
      const v = res.body.voucher;
      const voucher = { id: v.id, code: v.code, campaign: v.campaign, campaign_id: v.campaign_id, object: 'voucher' };
      const redemption = { ...res.body, voucher };
      assert.deepEqual(got!.json, {
        id: got!.json.id,
        project_id: 'proj_promo',
        created_at: redemption.date,
        type: 'redemption.succeeded',
        data: { customer: got!.json.data.customer, redemption, voucher },
        source: { id: hook.id, object: 'webhook', target_url: r.url },
        event: {
          id: got!.json.event.id,
          type: 'redemption.succeeded',
          created_at: redemption.date,
          entity_id: redemption.id,
          group_id: res.headers.get('x-request-id'),
          event_source: { channel: 'API' },
        },
      });
      assert.match(got!.json.id, /^whs_[0-9a-f]{24}$/);
      assert.match(got!.json.event.id, /^evt_[0-9A-Za-z]{16}$/);
      assert.deepEqual(got!.json.data.customer, {
        id: redemption.customer.id,
        source_id: 'hook-customer',
        metadata: {},
        object: 'customer',
      });
      const shown = (await server.request('GET', `${base}/${hook.id}`)).body.deliveries;
      assert.deepEqual(shown, [
        {
          object: 'webhook_delivery',
          id: got!.json.id,
          webhook_id: hook.id,
          event: { id: got!.json.event.id, type: 'redemption.succeeded' },
          status: 'DELIVERED',
          attempts: 1,
          next_attempt_at: null,
          last_status: 200,
          last_error: null,
          created_at: redemption.date,
          finished_at: shown[0].finished_at,
        },
      ]);
      await removeWebhook(hook.id);
    });

    it('retries a receiver that answers 500 three times and delivers on the fourth attempt', async () => {
      const r = await receiver((i) => (i < 3 ? 500 : 200));
      const hook = await addWebhook(r.url);
      await redeem();
      const got = await r.waitFor(4);
      await sleep(200);
      assert.equal(r.received.length, 4);
      // Every attempt is the same sendout of the same event, byte for byte, each signed.
      assert.deepEqual(new Set(got.map((g) => g.body)).size, 1);
      for (const g of got) assert.equal(g.headers['x-voucherify-signature'], expectedSignature(hook.secret, g.body));
      const [shown] = (await server.request('GET', `${base}/${hook.id}`)).body.deliveries;
      assert.deepEqual(
        [shown.status, shown.attempts, shown.last_status, shown.last_error, shown.next_attempt_at],
        ['DELIVERED', 4, 200, null, null],
      );
      await removeWebhook(hook.id);
    });

    it('keeps commit order for a receiver that is down for a while, and never holds back another webhook', async () => {
      const port = await freePort();
      const downUrl = `http://127.0.0.1:${port}/hook`;
      const up = await receiver();
      const down = await addWebhook(downUrl);
      const other = await addWebhook(up.url);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await redeem()).body.id);
      // The receiver that is up has every event while the other is still refused.
      const promptly = await up.waitFor(5, 5000);
      assert.deepEqual(
        promptly.map((g) => g.json.event.entity_id),
        ids,
      );
      await sleep(200);
      const waiting = (await server.request('GET', `${base}/${down.id}`)).body.deliveries;
      assert.equal(waiting.length, 5);
      const head = waiting[4];
      assert.equal(head.status, 'PENDING');
      assert.ok(head.attempts >= 1 && /ECONNREFUSED/.test(head.last_error), JSON.stringify(head));
      assert.ok(
        waiting.slice(0, 4).every((d: Delivery) => d.status === 'PENDING' && d.attempts === 0),
        'events behind the head wait: one in flight',
      );
      const back = await receiver(undefined, port);
      const later = await back.waitFor(5);
      assert.deepEqual(
        later.map((g) => g.json.event.entity_id),
        ids,
        'every event, in commit order',
      );
      await removeWebhook(down.id);
      await removeWebhook(other.id);
    });

    it('gives up after the bounded time, marks the delivery FAILED and sends the next event', async () => {
      await loop.stop();
      loop = startDeliveryLoop(server.deps, fast(1000));
      const r = await receiver((i) => (i < 100 && r.received[i]!.json.event.entity_id === first ? 503 : 200));
      const hook = await addWebhook(r.url);
      const first = (await redeem()).body.id;
      const second = (await redeem()).body.id;
      let count = 1;
      while ((await r.waitFor(count)).at(-1)!.json.event.entity_id !== second) count++;
      await sleep(100);
      const shown = (await server.request('GET', `${base}/${hook.id}`)).body.deliveries;
      assert.deepEqual(
        shown.map((d: Delivery) => [d.event.type, d.status, d.last_status]),
        [
          ['redemption.succeeded', 'DELIVERED', 200],
          ['redemption.succeeded', 'FAILED', 503],
        ],
      );
      assert.match(shown[1].last_error, /^HTTP 503: refused \d+$/);
      assert.ok(shown[1].attempts >= 2);
      await removeWebhook(hook.id);
    });

    it('writes nothing for a change that rolls back, nor for a refused redemption, nor with no webhook', async () => {
      const r = await receiver();
      const hook = await addWebhook(r.url);
      await redeem();
      await r.waitFor(1);
      const before = await outboxRows();
      // A subscriber after the outbox's that throws: the redemption's transaction rolls back, the outbox row with it.
      const unsubscribe = onRedemptionsSucceeded(server.deps.seams, async () => {
        throw new Error('injected failure after the outbox was written');
      });
      await percentVoucher(server, 'HOOK-ROLLED-BACK');
      const failed = await server.request('POST', '/v1/vouchers/HOOK-ROLLED-BACK/redemption', {
        body: { order: { amount: 1000 } },
      });
      unsubscribe();
      assert.deepEqual([failed.status, failed.body.key], [500, 'internal_error']);
      const refused = await server.request('POST', '/v1/vouchers/NO-SUCH-CODE/redemption', {
        body: { order: { amount: 1000 } },
      });
      assert.equal(refused.status, 404);
      assert.equal(
        (await server.request('GET', '/v1/vouchers/HOOK-ROLLED-BACK')).body.redemption.redeemed_quantity,
        0,
        'the redemption rolled back',
      );
      assert.deepEqual(await outboxRows(), before);
      await removeWebhook(hook.id);
      const withoutWebhooks = await outboxRows();
      await redeem();
      assert.deepEqual(await outboxRows(), withoutWebhooks, 'no webhook: no row');
      await sleep(200);
      assert.equal(r.received.length, 1);
    });
  });
}
