import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startHttpThread } from '../../../src/modules/webhooks/post-thread.client.js';
import { expectedSignature, type Receiver, startReceiver } from '../../support/webhook-receiver.js';

/**
 * `promo serve`'s POSTs thread (modules/webhooks/posts-worker.client.ts) against a real receiver: it
 * posts what it is handed, signed, answers each outcome to the POST that asked, and once it has
 * ended answers every POST as a failed attempt (retried later), never leaving one unanswered.
 */
describe("the webhook POSTs' thread", () => {
  let receiver: Receiver | undefined;
  after(async () => receiver?.close());

  it('posts signed bodies, answers each outcome, and fails POSTs once it has ended', async () => {
    receiver = await startReceiver((i) => (i === 1 ? 503 : 200));
    const thread = startHttpThread();
    const bodies = ['{"n":1}', '{"n":2}', '{"n":3}'];
    const results = await Promise.all(bodies.map((body) => thread.post(receiver!.url, body, 'sekret', 5000)));
    // The receiver refuses the second POST to arrive, whichever it is.
    const refused = receiver.received[1]!.body;
    assert.deepEqual(
      results,
      bodies.map((body) =>
        body === refused ? { status: 503, error: 'HTTP 503: refused 1' } : { status: 200, error: null },
      ),
    );
    assert.deepEqual(receiver.received.map((g) => g.body).sort(), bodies);
    for (const g of receiver.received)
      assert.equal(g.headers['x-voucherify-signature'], expectedSignature('sekret', g.body));
    await thread.stop();
    assert.deepEqual(await thread.post(receiver.url, '{}', 'sekret', 5000), {
      status: null,
      error: 'webhook sender thread ended',
    });
    assert.equal(receiver.received.length, 3);
  });
});
