// The Piscina worker threads' entry. Node 20 does not carry the main thread's tsx hooks into
// worker threads, so without this registration a thread cannot import() the TypeScript of a
// job registry and its steps (root/job-registry.ts names them by typed lazy imports). All of
// the thread's code then loads through one ESM graph: the steps and the machinery share one
// JobFailure class.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');

export default worker.default;
export const checkpoint = worker.checkpoint;
export const warm = worker.warm;
