import { array, mixed } from 'yup';
import type { Deps } from '../../app/deps.js';
import type { ItemFailure } from '../../jobs/job-step.js';
import { notifyJobEnqueued } from '../../jobs/jobs.events.js';
import { addJobItems, enqueueJob } from '../../jobs/jobs.service.js';
import { startStaging, type Staging } from '../../jobs/staging.service.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { JobType } from '../../lib/enums.js';
import { isPlainObject } from '../../lib/fields.js';
import { parse } from '../../lib/validate.js';
import { upsertImportedOrders, type OrderImportPayload } from './order-import.job.js';

export type { OrderImportPayload } from './order-import.job.js';

/** The reference's cap on one POST /v1/orders/import (voucherify-facts 1.13); `promo import` has none. */
export const MAX_ORDERS_PER_IMPORT = 2000;

const importOrdersBodySchema = array(mixed().test('object', '${path} must be an object', (v) => isPlainObject(v)))
  .typeError('The body must be an array of orders')
  .required('The body must be an array of orders')
  .min(1, 'The body must hold at least one order')
  .max(MAX_ORDERS_PER_IMPORT, `The body may hold at most ${MAX_ORDERS_PER_IMPORT} orders`);

/**
 * POST /v1/orders/import: a body that is not an array of 1 to 2000 objects is refused before
 * any job starts; otherwise the job and its orders are stored in one transaction, and each
 * order is checked by the job (a bad one is reported in its result, the others land).
 */
export async function importOrders(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: unknown,
  actor: Actor,
): Promise<{ async_action_id: string }> {
  const items = parse(importOrdersBodySchema, body, 'body');
  const payload: OrderImportPayload = { actor };
  const jobId = await deps.db.transaction().execute(async (trx) => {
    const id = await enqueueJob(trx, {
      type: JobType.ordersImport,
      payload,
      total: items.length,
      requestId: actor.request_id,
      now: isoNow(deps.clock),
    });
    await addJobItems(trx, id, 0, items);
    return id;
  });
  notifyJobEnqueued();
  return { async_action_id: jobId };
}

/** `promo import orders.json`: an ORDERS.IMPORT job fed from a streamed file of any size. */
export const startOrderImportStaging = (deps: Pick<Deps, 'db' | 'engine' | 'clock'>, actor: Actor): Promise<Staging> =>
  startStaging(deps, {
    type: JobType.ordersImport,
    payload: { actor } satisfies OrderImportPayload,
    requestId: actor.request_id,
  });

/** Thrown to roll a dry run's transaction back once its failures are known. */
class DryRunDone extends Error {}

/**
 * `promo import --dry-run`: runs the real import of a batch of orders (every check the job
 * makes, the catalog and customers included) in a transaction that is then rolled back, and
 * answers what would fail. Nothing is written. `from` numbers the batch's first order.
 */
export async function checkOrderImport(
  deps: Pick<Deps, 'db' | 'engine' | 'clock'>,
  actor: Actor,
  orders: unknown[],
  from: number,
): Promise<ItemFailure[]> {
  let failures: ItemFailure[] = [];
  const items = orders.map((order, i) => ({ position: from + i, body: JSON.stringify(order) }));
  try {
    await deps.db.transaction().execute(async (trx) => {
      failures = await upsertImportedOrders({ trx, engine: deps.engine, now: isoNow(deps.clock) }, actor, items, true);
      throw new DryRunDone();
    });
  } catch (error) {
    if (!(error instanceof DryRunDone)) throw error;
  }
  return failures;
}
