import { createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * One POST to a receiver. Node's http client follows no redirect (a 3xx is an answer like any
 * other non-2xx: retried); the whole exchange is bounded by `timeoutMs`; at most
 * RESPONSE_BYTES of the answer are read (for the delivery's last error) and the rest is
 * dropped with the connection.
 */
export const RESPONSE_BYTES = 1024;

/**
 * The signature a receiver written for the reference verifies: hex HMAC-SHA256 of the exact
 * body with the webhook's secret, sent as `X-Voucherify-Signature`. The body is compact JSON,
 * so a receiver that re-serializes the parsed body before hashing gets the same bytes.
 */
export const signBody = (secret: string, body: string): string =>
  createHmac('sha256', secret).update(body).digest('hex');

export const SIGNATURE_HEADER = 'X-Voucherify-Signature';

// Connections to a receiver are kept between deliveries (a queue sends one after another).
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 16 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 16 }),
};

export interface PostResult {
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Why it failed: the status and the start of the answer, or the network error. Null on 2xx. */
  error: string | null;
}

const ok = (status: number) => status >= 200 && status < 300;

export function postSigned(targetUrl: string, body: string, secret: string, timeoutMs: number): Promise<PostResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const url = new URL(targetUrl);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'User-Agent': 'promo-webhooks',
        [SIGNATURE_HEADER]: signBody(secret, body),
      },
    });
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish({ status: null, error: error.message || String(error) }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let head = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (head.length < RESPONSE_BYTES) head += chunk.slice(0, RESPONSE_BYTES - head.length);
        // Enough read: the rest of a large answer is not waited for.
        if (head.length >= RESPONSE_BYTES) res.destroy();
      });
      const done = () =>
        finish(
          ok(status)
            ? { status, error: null }
            : { status, error: `HTTP ${status}${head ? `: ${head.slice(0, 200)}` : ''}` },
        );
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.end(body);
  });
}

/** A queue's due sendouts for one receiver, posted in order by postInOrder. */
export interface OrderedPosts {
  targetUrl: string;
  secret: string;
  bodies: string[];
  timeoutMs: number;
  /** No POST starts with less than two timeouts of this left (the claim's lease). */
  budgetMs: number;
}

/**
 * Posts `bodies` one after another and stops at the first that fails (the events behind it
 * wait: a webhook's order is kept); the results of those posted, in order. One call per claimed
 * queue, so `promo serve`'s POSTs thread is handed a batch, not each POST (post-thread.client.ts).
 */
export async function postInOrder(posts: OrderedPosts): Promise<PostResult[]> {
  const started = performance.now();
  const results: PostResult[] = [];
  for (const body of posts.bodies) {
    if (performance.now() - started + 2 * posts.timeoutMs > posts.budgetMs) break;
    const result = await postSigned(posts.targetUrl, body, posts.secret, posts.timeoutMs);
    results.push(result);
    if (result.error !== null) break;
  }
  return results;
}
