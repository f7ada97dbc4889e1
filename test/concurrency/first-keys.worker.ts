/**
 * One server start of first-keys-race.test.ts: its own connection to the shared file. It says
 * "ready", waits for the go (all racers released at once), bootstraps the keys with none in the
 * environment, and answers with what it created.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDeps } from '../../src/root/create-deps.js';
import { bootstrapKeys } from '../../src/modules/auth/keys.service.js';

const { dbFile, go } = workerData as { dbFile: string; go: SharedArrayBuffer };
const deps = await openDeps({ dbFile, migrate: false, busyTimeoutMs: 20_000 });
parentPort?.postMessage('ready');
Atomics.wait(new Int32Array(go), 0, 0);
const created = await bootstrapKeys(deps, {});
await deps.close();
parentPort?.postMessage(created.map((k) => ({ app_id: k.app_id, kind: k.kind })));
