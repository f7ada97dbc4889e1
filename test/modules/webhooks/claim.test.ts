import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import { claim, DEFAULT_SENDER, drainQueue, fanOutPending } from '../../../src/modules/webhooks/delivery.service.js';
import { anyClaimable, databaseClockAhead } from '../../../src/modules/webhooks/queue.repository.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

/**
 * The claim that makes senders safe side by side: two senders (two processes' owners) asking at
 * once for the same due queue, on the app's real connection, with no sender loop running.
 */
/**
 * Waits until a delivery is due for a claim, looking as a claim does (the events fanned out, the
 * database's clock). On PostgreSQL an event or a delivery counts once its writing transaction is
 * below the cluster's horizon: the oldest transaction still open in any database of the cluster
 * (docs/operations.md), so another test's open transaction on the same cluster holds it back for
 * a moment, as a sender would find on a later round.
 */
async function untilDue(deps: Deps): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await fanOutPending(deps);
    const localMs = deps.clock.now().getTime();
    const now = new Date(localMs + (await databaseClockAhead(deps.db, localMs))).toISOString();
    if (await anyClaimable(deps.db, now)) return;
    if (Date.now() > deadline) throw new Error('no delivery became due within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
    const hook = (
      await server.request('POST', '/management/v1/projects/proj_promo/webhooks', {
        body: { target_url: receiver.url, events: ['redemption.succeeded'] },
      })
    ).body;
    assert.deepEqual(await claim(server.deps, 'snd_a', DEFAULT_SENDER, 8), [], 'nothing due yet');
    await server.request('POST', '/v1/vouchers/CLAIM-1', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    await server.request('POST', '/v1/vouchers/CLAIM-1/redemption', { body: { order: { amount: 1000 } } });
    await untilDue(server.deps);

    const [a, b] = await Promise.all([
      claim(server.deps, 'snd_a', DEFAULT_SENDER, 8),
      claim(server.deps, 'snd_b', DEFAULT_SENDER, 8),
    ]);
    const winners = [a, b].filter((claimed) => claimed.length > 0);
    assert.equal(winners.length, 1, 'exactly one sender holds the queue');
    assert.deepEqual(
      winners[0]!.map((w) => [w.id, w.target_url]),
      [[hook.id, receiver.url]],
    );
    assert.deepEqual(
      await claim(server.deps, 'snd_c', DEFAULT_SENDER, 8),
      [],
      'a held queue is not taken while its lease lives',
    );

    await drainQueue(server.deps, a.length > 0 ? 'snd_a' : 'snd_b', winners[0]![0]!, DEFAULT_SENDER);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(await claim(server.deps, 'snd_c', DEFAULT_SENDER, 8), [], 'delivered: nothing is due');
    const [shown] = (await server.request('GET', `/management/v1/projects/proj_promo/webhooks/${hook.id}`)).body
      .deliveries;
    assert.deepEqual([shown.status, shown.attempts], ['DELIVERED', 1]);
  });

  it('follows no redirect and reads little of an answer', async () => {
    // A receiver that redirects to another, with a 1 MiB body: the other is never called.
    const big = 'x'.repeat(1 << 20);
    const redirecting = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(302, { Location: receiver.url }).end(big));
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/moved`;
    try {
      for (const old of (await server.request('GET', '/management/v1/projects/proj_promo/webhooks')).body.data)
        await server.request('DELETE', `/management/v1/projects/proj_promo/webhooks/${old.id}`);
      const hook = (
        await server.request('POST', '/management/v1/projects/proj_promo/webhooks', {
          body: { target_url: url, events: ['redemption.succeeded'] },
        })
      ).body;
      const before = receiver.received.length;
      await server.request('POST', '/v1/vouchers/CLAIM-2', {
        body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      });
      await server.request('POST', '/v1/vouchers/CLAIM-2/redemption', { body: { order: { amount: 1000 } } });
      await untilDue(server.deps);
      const [claimed, ...others] = await claim(server.deps, 'snd_d', DEFAULT_SENDER, 8);
      assert.deepEqual([claimed!.target_url, others], [url, []]);
      await drainQueue(server.deps, 'snd_d', claimed!, DEFAULT_SENDER);
      assert.equal(receiver.received.length, before, 'the redirect was not followed');
      const [shown] = (await server.request('GET', `/management/v1/projects/proj_promo/webhooks/${hook.id}`)).body
        .deliveries;
      assert.deepEqual([shown.status, shown.attempts, shown.last_status], ['PENDING', 1, 302]);
      assert.equal(shown.last_error, `HTTP 302: ${'x'.repeat(200)}`);
      assert.ok(shown.next_attempt_at > shown.created_at);
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it('leases at most the number of queues asked for, the oldest webhooks first', async () => {
    const base = '/management/v1/projects/proj_promo/webhooks';
    for (const old of (await server.request('GET', base)).body.data)
      await server.request('DELETE', `${base}/${old.id}`);
    const hooks: string[] = [];
    for (let i = 0; i < 5; i++)
      hooks.push(
        (await server.request('POST', base, { body: { target_url: receiver.url, events: ['redemption.succeeded'] } }))
          .body.id,
      );
    await server.request('POST', '/v1/vouchers/CLAIM-3', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    await server.request('POST', '/v1/vouchers/CLAIM-3/redemption', { body: { order: { amount: 1000 } } });
    await untilDue(server.deps);
    const taken: string[][] = [];
    for (const owner of ['snd_e', 'snd_f', 'snd_g', 'snd_h'])
      taken.push((await claim(server.deps, owner, DEFAULT_SENDER, 2)).map((w) => w.id).sort());
    // Each claim's queues in any order (RETURNING promises none).
    const batches = [hooks.slice(0, 2), hooks.slice(2, 4), hooks.slice(4), []].map((ids) => ids.sort());
    assert.deepEqual(taken, batches);
  });
});
