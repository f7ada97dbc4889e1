import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claim, DEFAULT_SENDER, drainQueue } from '../../../src/modules/webhooks/delivery.service.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

/**
 * The claim that makes senders safe side by side: two senders (two processes' owners) asking at
 * once for the same due queue, on the app's real connection, with no sender loop running.
 */
describe('webhook queue claims', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  it('gives a due queue to one sender only, until that sender gives it back', async () => {
    const hook = (await server.request('POST', '/management/v1/projects/proj_promo/webhooks', { body: { target_url: receiver.url, events: ['redemption.succeeded'] } })).body;
    assert.deepEqual(await claim(server.deps, 'snd_a', DEFAULT_SENDER, 8), [], 'nothing due yet');
    await server.request('POST', '/v1/vouchers/CLAIM-1', { body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } } });
    await server.request('POST', '/v1/vouchers/CLAIM-1/redemption', { body: { order: { amount: 1000 } } });

    const [a, b] = await Promise.all([claim(server.deps, 'snd_a', DEFAULT_SENDER, 8), claim(server.deps, 'snd_b', DEFAULT_SENDER, 8)]);
    const winners = [a, b].filter((claimed) => claimed.length > 0);
    assert.equal(winners.length, 1, 'exactly one sender holds the queue');
    assert.deepEqual(winners[0]!.map((w) => [w.id, w.target_url]), [[hook.id, receiver.url]]);
    assert.deepEqual(await claim(server.deps, 'snd_c', DEFAULT_SENDER, 8), [], 'a held queue is not taken while its lease lives');

    await drainQueue(server.deps, a.length > 0 ? 'snd_a' : 'snd_b', winners[0]![0]!, DEFAULT_SENDER);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(await claim(server.deps, 'snd_c', DEFAULT_SENDER, 8), [], 'delivered: nothing is due');
    const [shown] = (await server.request('GET', `/management/v1/projects/proj_promo/webhooks/${hook.id}`)).body.deliveries;
    assert.deepEqual([shown.status, shown.attempts], ['DELIVERED', 1]);
  });
});
