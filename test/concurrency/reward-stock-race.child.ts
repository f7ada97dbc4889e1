/**
 * One racer of reward-stock-race.test.ts, in a process of its own: its own connection to the
 * shared file. It waits for "go" on stdin, then claims one unit of the reward `tries` times
 * (each in its own transaction, as a redemption would) and prints how many it won and lost.
 */
import { createInterface } from 'node:readline';
import { openDeps } from '../../src/root/create-deps.js';
import { AppError } from '../../src/lib/errors.js';
import { claimRewardStock } from '../../src/modules/rewards/rewards.service.js';

const [dbFile, rewardId, tries] = process.argv.slice(2) as [string, string, string];
const deps = await openDeps({ dbFile, migrate: false, busyTimeoutMs: 20_000 });
process.stdout.write('ready\n');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
let won = 0;
let lost = 0;
for (let i = 0; i < Number(tries); i++) {
  try {
    await deps.db.transaction().execute((trx) => claimRewardStock(deps, trx, rewardId));
    won++;
  } catch (error) {
    if (!(error instanceof AppError && error.key === 'reward_out_of_stock')) throw error;
    lost++;
  }
  await new Promise((resolve) => setImmediate(resolve));
}
await deps.close();
process.stdout.write(`${JSON.stringify({ won, lost })}\n`);
process.stdin.destroy();
