// The writer thread's entry (root/writer-thread.ts). Node 20 does not carry the main thread's
// tsx hooks into worker threads: register them, then load the thread's TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./writer-thread.worker.ts');
