import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { openDeps } from '../../../src/root/create-deps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { addLoyaltyPoints } from '../../../src/modules/customers/customer-summary.service.js';
import { createCustomer, getCustomer } from '../../../src/modules/customers/customers.service.js';
import { freshDatabase } from '../../support/engine.js';

const WORKERS = 4;
const ROUNDS = 25;
const POINTS = 60;

function race(dbFile: string, customerId: string): Promise<{ spent: number; refused: number }> {
  return new Promise((resolve, reject) => {
    // A plain-JS entry registers tsx in the thread (as bin/promo does), then loads the .ts racer.
    const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const racer = JSON.stringify(new URL('./summary-race.worker.ts', import.meta.url).href);
    const entry = `import(${api}).then(({ register }) => { register(); return import(${racer}); })`;
    const worker = new Worker(entry, { eval: true, workerData: { dbFile, customerId, rounds: ROUNDS } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
  });
}

describe('customer summary under concurrent writers', () => {
  it('counts every order and spends exactly the points there are, across four connections', async () => {
    const dbFile = await freshDatabase();
    const deps = await openDeps({ dbFile });
    try {
      const { customer } = await createCustomer(deps, internalActor(), { source_id: 'racer' });
      await deps.db.transaction().execute((trx) =>
        addLoyaltyPoints(trx, {
          customer_id: customer.id,
          campaign: { id: 'camp_race', name: 'Race Program' },
          points: POINTS,
          at: customer.created_at,
        }),
      );
      const results = await Promise.all(Array.from({ length: WORKERS }, () => race(dbFile, customer.id)));
      const spent = results.reduce((n, r) => n + r.spent, 0);
      const refused = results.reduce((n, r) => n + r.refused, 0);
      assert.equal(spent, POINTS);
      assert.equal(refused, WORKERS * ROUNDS - POINTS);
      const after = await getCustomer(deps, 'racer');
      assert.deepEqual(after.loyalty, {
        points: 0,
        referred_customers: 0,
        campaigns: { 'Race Program': { points: 0, referred_customers: 0 } },
      });
      assert.equal(after.summary.redemptions.total_redeemed, POINTS);
      assert.equal(after.summary.redemptions.total_succeeded, POINTS);
      assert.deepEqual(after.summary.redemptions.loyalty_card, { redeemed_points: POINTS, points_to_go: 0 });
      assert.equal(after.summary.orders.total_count, WORKERS * ROUNDS);
      assert.equal(after.summary.orders.total_amount, WORKERS * ROUNDS * 100);
    } finally {
      await deps.close();
    }
  });
});
