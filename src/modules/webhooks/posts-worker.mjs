// The webhook POSTs' thread entry (posts-worker.client.ts). Node 20 does not carry the main thread's
// tsx hooks into worker threads: register them, then load the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./posts-worker.client.ts');
