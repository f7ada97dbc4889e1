import { parentPort } from 'node:worker_threads';
import { postSigned } from './delivery.client.js';

/** One POST the sender asks this thread for (post-thread.client.ts), and its answer. */
export interface PostTask {
  id: number;
  targetUrl: string;
  body: string;
  secret: string;
  timeoutMs: number;
}

/**
 * THE WEBHOOK POSTS' THREAD: signs and sends what the sender hands it and answers each
 * outcome. Only the HTTP is here (its syscalls are most of a delivery's time: off the API's
 * event loop); the sender's claims and records stay on the API's connection, where they share
 * its group commits instead of contending for the write lock.
 */
const port = parentPort!;
port.on('message', async (task: PostTask) => {
  const result = await postSigned(task.targetUrl, task.body, task.secret, task.timeoutMs);
  port.postMessage({ id: task.id, result });
});
