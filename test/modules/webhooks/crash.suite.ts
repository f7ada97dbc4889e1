import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { spawnServe, type SpawnedServer } from '../../support/cli.js';
import {
  type Delivery,
  expectedSignature,
  sleep,
  startReceiver,
  type Receiver,
} from '../../support/webhook-receiver.js';

/**
 * The outbox across a crash, with the real binary: `promo serve` is SIGKILLed after it
 * committed a redemption, while the event's POST is in flight (the receiver holds its answer),
 * and a new `promo serve` on the same database delivers it once the dead sender's lease (six
 * timeouts) has passed. Nothing is lost, and the database holds the event and its delivery once.
 * On SQLite (crash.test.ts) and on PostgreSQL (postgres.test.ts).
 */
const ENV = {
  PROMO_APP_ID: 'hooks-app',
  PROMO_APP_TOKEN: 'hooks-token',
  PROMO_WEBHOOK_TIMEOUT_MS: '400',
  PROMO_WEBHOOK_RETRY_BASE_MS: '50',
  PROMO_WEBHOOK_POLL_MS: '50',
};
const base = '/management/v1/projects/proj_promo/webhooks';

export function crashSuite(title: string, database: () => Promise<string>, skip: string | false = false): void {
  describe(title, { skip }, () => {
    const started: SpawnedServer[] = [];
    let receiver: Receiver | undefined;
    after(async () => {
      for (const server of started)
        if (server.child.exitCode === null && server.child.signalCode === null) await server.stop('SIGKILL');
      await receiver?.close();
    });

    it('delivers after restart an event whose server was killed before delivering it', async () => {
      const file = await database();
      // No POST is answered until the first server is dead: it dies with its POST in flight (under
      // load that POST may time out and be retried before the kill: no retry of it may deliver).
      // The second server's get 200.
      let killed = false;
      receiver = await startReceiver(() => (killed ? 200 : new Promise<number>(() => undefined)));
      const first = await spawnServe(['--db', file, '--workers', '1'], ENV);
      started.push(first);
      const hook = (await first.request('POST', base, { target_url: receiver.url, events: ['redemption.succeeded'] }))
        .body;
      await first.request('POST', '/v1/vouchers/CRASH-1', {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'PERCENT', percent_off: 10 },
      });
      const redeemed = await first.request('POST', '/v1/vouchers/CRASH-1/redemption', { order: { amount: 1000 } });
      assert.equal(redeemed.status, 200);
      const [inFlight] = await receiver.waitFor(1);
      await first.stop('SIGKILL');
      killed = true;
      const sentBefore = receiver.received.length;

      const second = await spawnServe(['--db', file, '--workers', '1'], ENV);
      started.push(second);
      const got = await receiver.waitFor(sentBefore + 1, 20_000);
      const again = got[sentBefore]!;
      assert.equal(again.json.event.entity_id, redeemed.body.id);
      assert.equal(again.body, inFlight!.body, 'the same sendout of the same event, byte for byte');
      assert.equal(again.headers['x-voucherify-signature'], expectedSignature(hook.secret, again.body));

      // The receiver has it; the sender records the outcome right after.
      let shown = (await second.request('GET', `${base}/${hook.id}`)).body.deliveries;
      for (let i = 0; i < 100 && shown[0].status === 'PENDING'; i++) {
        await sleep(50);
        shown = (await second.request('GET', `${base}/${hook.id}`)).body.deliveries;
      }
      assert.deepEqual(
        shown.map((d: Delivery) => [d.id, d.event.id, d.status, d.last_status]),
        [[again.json.id, again.json.event.id, 'DELIVERED', 200]],
      );
      const metrics = await (await fetch(`${second.url}/metrics`)).text();
      assert.match(metrics, /^promo_webhook_deliveries_total\{outcome="delivered"\} 1$/m);
      assert.match(metrics, /^promo_webhook_oldest_undelivered_seconds 0$/m);
      await second.stop();
    });
  });
}
