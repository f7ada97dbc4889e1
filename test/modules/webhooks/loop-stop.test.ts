import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loopOptions, startDeliveryLoop } from '../../../src/modules/webhooks/delivery-loop.service.js';
import { percentVoucher } from '../../api/redemptions/fixtures.js';
import { startTestServer } from '../../support/server.js';
import { sleep, startReceiver } from '../../support/webhook-receiver.js';

/**
 * `promo serve` stops its sender before it closes the database: the sender's stop must wait for
 * a look under way (its fan-out and claim of due queues), or those statements run on a closed
 * database. Seen once on PostgreSQL as "webhook claim failed" in the shutdown log.
 */
describe('the webhook sender stops', () => {
  it('after the look under way, so nothing runs on a database being closed', async () => {
    const server = await startTestServer();
    const receiver = await startReceiver();
    try {
      const hook = await server.request('POST', '/management/v1/projects/proj_promo/webhooks', {
        body: { target_url: receiver.url, events: ['redemption.succeeded'] },
      });
      assert.equal(hook.status, 200, hook.text);
      await percentVoucher(server, 'STOP-1');
      const redeemed = await server.request('POST', '/v1/vouchers/STOP-1/redemption', {
        body: { customer: { source_id: 'stop-customer' }, order: { amount: 1000 } },
      });
      assert.equal(redeemed.status, 200, redeemed.text);
      const loop = startDeliveryLoop(server.deps, loopOptions({ timeoutMs: 2000, retryBaseMs: 30, pollMs: 20 }));
      await sleep(1); // its first look has begun: it fans the event out, then claims the queue
      await loop.stop();
      await server.close();
      await sleep(200); // what a look left running would do on the closed database
      assert.deepEqual(server.logged, []);
    } finally {
      await receiver.close();
      await server.close();
    }
  });
});
