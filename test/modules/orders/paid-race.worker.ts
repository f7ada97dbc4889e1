/**
 * One racer of paid-seam.test.ts: its own connection to the shared file and its own
 * subscriber to the paid-order seam (which records the hit in paid_hits, in the order's
 * transaction). Once every racer is ready it sets each order to PAID, as PUT /v1/orders does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDeps } from '../../../src/root/create-deps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { onOrderPaid } from '../../../src/modules/orders/order-paid.seam.js';
import { updateOrder } from '../../../src/modules/orders/orders.service.js';

const { dbFile, racer, orders, start } = workerData as {
  dbFile: string;
  racer: number;
  orders: string[];
  start: SharedArrayBuffer;
};
const deps = await openDeps({ dbFile, migrate: false, busyTimeoutMs: 20_000 });
let fired = 0;
onOrderPaid(deps.seams, async (trx, paid) => {
  fired++;
  await sql`INSERT INTO paid_hits (order_id, racer, status) VALUES (${paid.order.id}, ${racer}, ${paid.order.status})`.execute(
    trx,
  );
});
const gate = new Int32Array(start);
parentPort?.postMessage({ ready: true });
Atomics.wait(gate, 0, 0);
for (const ref of orders) {
  // Each PUT changes the order (its metadata), so only the paid_at guard keeps the seam to one firing.
  await updateOrder(deps, internalActor(), ref, { status: 'PAID', metadata: { racer } });
  await new Promise((resolve) => setImmediate(resolve));
}
await deps.close();
parentPort?.postMessage({ fired });
