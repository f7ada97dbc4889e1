import { Worker } from 'node:worker_threads';
import type { OrderedPosts, PostResult } from './delivery.client.js';
import type { PostTask } from './posts-worker.client.js';

const ENTRY = new URL('./posts-worker.mjs', import.meta.url);

export type Poster = (posts: OrderedPosts) => Promise<PostResult[]>;

/**
 * `promo serve`'s webhook POSTs on a thread of their own (posts-worker.client.ts): `post` has the
 * signature of postInOrder (a queue's batch, one message each way) and answers when the thread
 * does. A thread that ends leaves the batches it held failed at their first POST (retried); `stop` ends it once the sender has stopped. The thread
 * starts with the first POST: a server with no webhook never starts it.
 */
export function startHttpThread(): { post: Poster; stop(): Promise<void> } {
  const waiting = new Map<number, (results: PostResult[]) => void>();
  let next = 0;
  let ended: string | null = null;
  let worker: Worker | undefined;
  const end = (why: string) => {
    ended = why;
    for (const resolve of waiting.values()) resolve([{ status: null, error: why }]);
    waiting.clear();
  };
  const thread = (): Worker => {
    if (worker) return worker;
    worker = new Worker(ENTRY, { execArgv: ['--import', import.meta.resolve('tsx')] });
    worker.unref();
    worker.on('message', ({ id, results }: { id: number; results: PostResult[] }) => {
      waiting.get(id)?.(results);
      waiting.delete(id);
    });
    worker.on('error', (error) => end(`webhook sender thread failed: ${error.message}`));
    worker.on('exit', () => end('webhook sender thread ended'));
    return worker;
  };
  return {
    post(posts) {
      if (ended !== null) return Promise.resolve([{ status: null, error: ended }]);
      const id = ++next;
      const task: PostTask = { id, posts };
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
