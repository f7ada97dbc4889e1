import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { spawnServe } from '../support/cli.js';
import { freshDatabase } from '../support/engine.js';

const MB = 1024 * 1024;

/** The process's resident set now, in bytes (Linux's /proc). */
const rssOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;

/** POSTs the whole body without credentials, as a careless client would; resolves with the answer. */
function postWithoutKey(url: string, body: Buffer): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/v1/customers`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    // The server closes once it has answered: the rest of the body cannot be written.
    req.on('error', (error: NodeJS.ErrnoException) =>
      ['EPIPE', 'ECONNRESET'].includes(error.code ?? '') ? undefined : reject(error),
    );
    req.end(body);
  });
}

/**
 * Issue 25 point 2, measured on the real `promo serve`: unauthenticated bodies are never held.
 * Before, 30 parallel unauthenticated 15 MB POSTs all got 401, yet the server grew from 214 MB
 * to a 529 MB peak, since every body was read before the key was checked.
 */
describe('unauthenticated bodies, on promo serve', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  it('answers 30 parallel unauthenticated 15 MB POSTs 401, its resident set within 50 MB of idle', async () => {
    const server = await spawnServe(['--db', await freshDatabase()], {
      PROMO_APP_ID: 'rss-app',
      PROMO_APP_TOKEN: 'rss-token',
    });
    const pid = server.child.pid as number;
    try {
      const body = Buffer.alloc(15 * MB, 0x20);
      // Warm-up: the code paths of a refusal, then a moment for the heap to settle.
      for (let i = 0; i < 3; i++) assert.equal((await postWithoutKey(server.url, Buffer.from('{}'))).status, 401);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const idle = rssOf(pid);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
      const answers = await Promise.all(Array.from({ length: 30 }, () => postWithoutKey(server.url, body)));
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(pid));
      for (const answer of answers) {
        assert.deepEqual(answer, {
          status: 401,
          body: {
            code: 401,
            key: 'unauthorized',
            message: 'Unauthorized',
            details: 'Send X-App-Id and X-App-Token, or an OAuth bearer token',
            request_id: answer.body.request_id,
          },
        });
      }
      console.log(JSON.stringify({ idle_mb: Math.round(idle / MB), peak_mb: Math.round(peak / MB) }));
      assert.ok(peak - idle <= 50 * MB, `idle ${Math.round(idle / MB)} MB, peak ${Math.round(peak / MB)} MB`);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
