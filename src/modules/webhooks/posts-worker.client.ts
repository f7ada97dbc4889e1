import { parentPort } from 'node:worker_threads';
import { type OrderedPosts, postInOrder } from './delivery.client.js';

/** A queue's batch the sender asks this thread to post (post-thread.client.ts). */
export interface PostTask {
  id: number;
  posts: OrderedPosts;
}

/**
 * THE WEBHOOK POSTS' THREAD: signs and sends, in order, the batch the sender hands it and
 * answers their outcomes in one message. Only the HTTP is here (its syscalls are most of a delivery's time: off the API's
 * event loop); the sender's claims and records stay on the API's connection, where they share
 * its group commits instead of contending for the write lock.
 */
const port = parentPort!;
port.on('message', async (task: PostTask) => {
  const results = await postInOrder(task.posts);
  port.postMessage({ id: task.id, results });
});
