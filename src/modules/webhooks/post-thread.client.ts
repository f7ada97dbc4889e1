import { Worker } from 'node:worker_threads';
import type { PostResult } from './delivery.client.js';
import type { PostTask } from './posts-worker.client.js';

const ENTRY = new URL('./posts-worker.mjs', import.meta.url);

export type Poster = (targetUrl: string, body: string, secret: string, timeoutMs: number) => Promise<PostResult>;

/**
 * `promo serve`'s webhook POSTs on a thread of their own (posts-worker.client.ts): `post` has the
 * signature of postSigned and answers when the thread does. A thread that ends leaves the POSTs
 * it held failed (they are retried); `stop` ends it once the sender has stopped. The thread
 * starts with the first POST: a server with no webhook never starts it.
 */
export function startHttpThread(): { post: Poster; stop(): Promise<void> } {
  const waiting = new Map<number, (result: PostResult) => void>();
  let next = 0;
  let ended: string | null = null;
  let worker: Worker | undefined;
  const end = (why: string) => {
    ended = why;
    for (const resolve of waiting.values()) resolve({ status: null, error: why });
    waiting.clear();
  };
  const thread = (): Worker => {
    if (worker) return worker;
    worker = new Worker(ENTRY, { execArgv: ['--import', import.meta.resolve('tsx')] });
    worker.unref();
    worker.on('message', ({ id, result }: { id: number; result: PostResult }) => {
      waiting.get(id)?.(result);
      waiting.delete(id);
    });
    worker.on('error', (error) => end(`webhook sender thread failed: ${error.message}`));
    worker.on('exit', () => end('webhook sender thread ended'));
    return worker;
  };
  return {
    post(targetUrl, body, secret, timeoutMs) {
      if (ended !== null) return Promise.resolve({ status: null, error: ended });
      const id = ++next;
      const task: PostTask = { id, targetUrl, body, secret, timeoutMs };
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        thread().postMessage(task);
      });
    },
    async stop() {
      end('webhook sender thread ended');
      await worker?.terminate();
    },
  };
}
