import type { Deps } from '../../app/deps.js';
import type { ItemFailure } from '../../jobs/job-step.js';
import { internalActor } from '../../lib/actor.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { checkOrderImport } from '../../modules/orders/index.js';
import { printJson } from '../run.js';

const BATCH = 500;

/**
 * `promo import orders.json --dry-run`: every order of the file goes through the import's own
 * checks, a batch at a time in a transaction that is rolled back; prints what would fail and
 * writes nothing. Exits 1 when an order would fail (or the file is malformed).
 */
export async function dryRunOrders(
  deps: Deps,
  items: AsyncIterable<unknown>,
  json: boolean | undefined,
): Promise<void> {
  const actor = internalActor();
  const failures: Array<ItemFailure & { source_id: string | null }> = [];
  let batch: unknown[] = [];
  let count = 0;
  const check = async () => {
    for (const f of await checkOrderImport(deps, actor, batch, count - batch.length))
      failures.push({ ...f, source_id: f.key });
    batch = [];
  };
  for await (const item of items) {
    batch.push(item);
    count++;
    if (batch.length >= BATCH) await check();
  }
  await check();
  if (count === 0) throw invalidPayload('The file holds no orders');
  const message = `${count - failures.length} order(s) would be imported, ${failures.length} would fail. Nothing was written.`;
  if (json)
    printJson({
      message,
      done_count: count - failures.length,
      failed_count: failures.length,
      failed: failures.map((f) => ({ source_id: f.source_id, row: f.position + 1, reason: f.reason })),
    });
  else {
    process.stdout.write(`${message}\n`);
    for (const f of failures) process.stdout.write(`  ${f.source_id ?? `(order ${f.position + 1})`}: ${f.reason}\n`);
  }
  if (failures.length > 0) throw new AppError('import_failed', `${failures.length} of ${count} order(s) would fail`);
}
