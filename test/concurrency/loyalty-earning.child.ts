/**
 * One process of loyalty-earning-race.test.ts, on its own connection to the shared file:
 * `earn <dbFile> <startAtMs> <tag> <count>` pays `count` orders of the customer `racer`
 * (each earns on the customer's card through the paid-order seam); `sweep <dbFile> <startAtMs>
 * <clock ISO>` runs the pending-points sweep once at that time. Prints one JSON line.
 */
import { openDeps } from '../../src/root/create-deps.js';
import { internalActor } from '../../src/lib/actor.js';
import { fixedClock } from '../../src/lib/clock.js';
import { activateDuePendingPointsSweep } from '../../src/modules/loyalty/pending-points/pending-points.sweep.js';
import { createOrder } from '../../src/modules/orders/orders.service.js';

const [mode, dbFile, startAt, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const clock = mode === 'sweep' ? fixedClock(rest[0] as string) : undefined;
const deps = await openDeps({ dbFile, migrate: false, busyTimeoutMs: 20_000, ...(clock ? { clock } : {}) });
// Both processes start together: each waits for the same instant.
while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
if (mode === 'earn') {
  const [tag, count] = rest as [string, string];
  for (let i = 0; i < Number(count); i++) {
    await createOrder(deps, internalActor(), {
      source_id: `${tag}-${i}`,
      status: 'PAID',
      customer: { source_id: 'racer' },
      items: [{ quantity: 1, price: 1000 }],
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
  process.stdout.write(`${JSON.stringify({ paid: Number(count) })}\n`);
} else {
  process.stdout.write(`${JSON.stringify({ activated: await activateDuePendingPointsSweep(deps) })}\n`);
}
await deps.close();
