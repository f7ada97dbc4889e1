/**
 * One racer of summary-race.test.ts: its own connection to the shared file, `rounds`
 * transactions that each spend one loyalty point and count one redemption and one order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDeps } from '../../../src/root/create-deps.js';
import { AppError } from '../../../src/lib/errors.js';
import {
  addLoyaltyPoints,
  recordOrderInSummary,
  recordRedemptionInSummary,
} from '../../../src/modules/customers/customer-summary.service.js';

const { dbFile, customerId, rounds } = workerData as { dbFile: string; customerId: string; rounds: number };
const deps = await openDeps({ dbFile, migrate: false, busyTimeoutMs: 20_000, synchronous: 'NORMAL' });
const campaign = { id: 'camp_race', name: 'Race Program' };
let spent = 0;
let refused = 0;
for (let i = 0; i < rounds; i++) {
  const at = new Date(Date.UTC(2024, 0, 1) + i).toISOString();
  await deps.db
    .transaction()
    .execute((trx) => recordOrderInSummary(trx, { customer_id: customerId, amount: 100, order_date: at, at }));
  try {
    await deps.db.transaction().execute(async (trx) => {
      await addLoyaltyPoints(trx, { customer_id: customerId, campaign, points: -1, at });
      await recordRedemptionInSummary(trx, { customer_id: customerId, result: 'SUCCESS', loyalty_points: 1, at });
    });
    spent++;
  } catch (error) {
    if (!(error instanceof AppError) || error.key !== 'customer_summary_out_of_balance') throw error;
    refused++;
  }
  await new Promise((resolve) => setImmediate(resolve));
}
await deps.close();
parentPort?.postMessage({ spent, refused });
