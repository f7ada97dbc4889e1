import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startHttpThread } from '../../../src/modules/webhooks/post-thread.client.js';
import { expectedSignature, type Receiver, startReceiver } from '../../support/webhook-receiver.js';

/**
 * `promo serve`'s POSTs thread (modules/webhooks/posts-worker.client.ts) against a real receiver: it
 * posts a queue's batch in order, signed, stops at the first failure (the rest keeps its order
 * for a later claim), answers the outcomes in one message, and once it has ended answers every
 * batch as a failed first attempt (retried later), never leaving one unanswered.
 */
describe("the webhook POSTs' thread", () => {
  let receiver: Receiver | undefined;
  after(async () => receiver?.close());

  it('posts a batch in order, signed, stops at the first refusal, and fails batches once it has ended', async () => {
    receiver = await startReceiver((i) => (i === 1 ? 503 : 200));
    const thread = startHttpThread();
    const batch = (bodies: string[]) => ({
      targetUrl: receiver!.url,
      secret: 'sekret',
      bodies,
      timeoutMs: 5000,
      budgetMs: 60_000,
    });
    assert.deepEqual(await thread.post(batch(['{"n":1}', '{"n":2}', '{"n":3}'])), [
      { status: 200, error: null },
      { status: 503, error: 'HTTP 503: refused 1' },
    ]);
    assert.deepEqual(
      receiver.received.map((g) => g.body),
      ['{"n":1}', '{"n":2}'],
      'in order, and nothing after the refusal',
    );
    for (const g of receiver.received)
      assert.equal(g.headers['x-voucherify-signature'], expectedSignature('sekret', g.body));
    // Not enough of the lease left for a POST: none starts.
    assert.deepEqual(await thread.post({ ...batch(['{"n":4}']), budgetMs: 9999 }), []);
    await thread.stop();
    assert.deepEqual(await thread.post(batch(['{}'])), [{ status: null, error: 'webhook sender thread ended' }]);
    assert.equal(receiver.received.length, 2);
  });
});
