import { fieldOf, itemRefusal, type StoredItem } from '../../jobs/item-savepoints.js';
import { RedoPortion, type ItemFailure, type JobStep, type PortionContext } from '../../jobs/job-step.js';
import { itemPortion } from '../../jobs/portions.service.js';
import { Seams } from '../../lib/seams.js';
import type { Actor } from '../../lib/actor.js';
import { parse } from '../../lib/validate.js';
import { clearCatalogCache, newCatalogCache } from '../catalog/index.js';
import { newCustomerCache, prefetchCustomers } from '../customers/index.js';
import { prefetchCatalog } from './order-items.service.js';
import { createOrderSchema, type CreateOrderBody } from './orders.schemas.js';
import { IMPORT_UPSERT, storeOrder, type OrderContext } from './orders.service.js';

const sourceIdOf = fieldOf('source_id');

/** Import fires no seam (voucherify-facts 1.13: historical orders run no earning rules). */
const NO_SEAMS = new Seams();

type Checked = { input: CreateOrderBody; error?: undefined } | { input?: undefined; error: unknown };

function check(body: unknown): Checked {
  try {
    return { input: parse(createOrderSchema, body, 'item') };
  } catch (error) {
    return { error };
  }
}

type OrderWork = { orderCtx: OrderContext; bodies: unknown[]; checked: Checked[] };

/** Each order in a savepoint of its own: a bad one is rolled back and reported, the others land. */
async function eachInSavepoint(ctx: PortionContext, work: OrderWork, items: StoredItem[]): Promise<ItemFailure[]> {
  const failures: ItemFailure[] = [];
  for (const [i, item] of items.entries()) {
    const { input, error } = work.checked[i] as Checked;
    try {
      if (!input) throw error;
      await ctx.engine.inSavepoint(ctx.trx, () => storeOrder(ctx.trx, work.orderCtx, input, IMPORT_UPSERT));
    } catch (error) {
      clearCatalogCache(work.orderCtx.catalog);
      failures.push({ position: item.position, key: sourceIdOf(work.bodies[i]), ...itemRefusal(error) });
    }
  }
  return failures;
}

/**
 * The orders without a savepoint each: those the schema refused are reported (nothing was
 * written for them); any other failure throws RedoPortion, which rolls the portion's whole
 * transaction back and runs it again with a savepoint per order (eachInSavepoint).
 */
async function allAtOnce(ctx: PortionContext, work: OrderWork, items: StoredItem[]): Promise<ItemFailure[]> {
  const failures: ItemFailure[] = [];
  for (const [i, item] of items.entries()) {
    const { input, error } = work.checked[i] as Checked;
    if (!input) {
      failures.push({ position: item.position, key: sourceIdOf(work.bodies[i]), ...itemRefusal(error) });
      continue;
    }
    try {
      await storeOrder(ctx.trx, work.orderCtx, input, IMPORT_UPSERT);
    } catch (cause) {
      throw new RedoPortion(`order at position ${item.position} failed: the portion runs again, an order at a time`, {
        cause,
      });
    }
  }
  return failures;
}

/**
 * Upserts the orders in the caller's transaction and returns why each bad one failed: the
 * work of one import portion, and of a dry run that rolls it back. The orders are checked
 * first, and the catalog entries all of them name are read in a few queries into a cache that
 * lives as long as this transaction (catalog-lookup.service.ts), and so are the customers
 * they name by source id (customer-cache.service.ts). When the catalog cache holds them all
 * (no order creates or misses one), the orders run without a savepoint each (allAtOnce), else
 * or when `savepoints` (a dry run, a portion run again), each in a savepoint of its own; an
 * order that fails there clears the cache, since its rollback may undo catalog writes.
 */
export async function upsertImportedOrders(
  ctx: PortionContext,
  actor: Actor,
  items: StoredItem[],
  savepoints = ctx.itemSavepoints === true,
): Promise<ItemFailure[]> {
  const orderCtx = { actor, at: ctx.now, seams: NO_SEAMS, catalog: newCatalogCache(), customers: newCustomerCache() };
  const bodies: unknown[] = items.map((item) => JSON.parse(item.body));
  const checked = bodies.map(check);
  const allKnown = await prefetchCatalog(
    ctx.trx,
    checked.flatMap((c) => c.input?.items ?? []),
    orderCtx.catalog,
  );
  await prefetchCustomers(
    ctx.trx,
    checked.flatMap((c) => (c.input?.customer?.id == null ? (c.input?.customer?.source_id ?? []) : [])),
    orderCtx.customers,
  );
  const work = { orderCtx, bodies, checked };
  return savepoints || !allKnown ? eachInSavepoint(ctx, work, items) : allAtOnce(ctx, work, items);
}

/**
 * ORDERS.IMPORT: each portion upserts the next stored orders, each all or nothing, so a bad
 * order leaves nothing half-written while the good ones of the portion land. Orders
 * keep their own created_at and update customer summaries, but write no events and fire no
 * paid-order seam (IMPORT_UPSERT).
 */
/** What an ORDERS.IMPORT job carries: who asked (its orders' customers are upserted in their name). */
export interface OrderImportPayload {
  actor: Actor;
}

export const importOrdersStep: JobStep<OrderImportPayload> = {
  run: (ctx, job, maxItems) =>
    itemPortion(ctx, job, maxItems, (items) => upsertImportedOrders(ctx, job.payload.actor, items)),

  // The runner adds `failed` (the first failures, by `source_id`) and the report's URL.
  async finish(_ctx, job) {
    return {
      message: `${job.done_count} order(s) imported successfully, ${job.failed_count} failed.`,
      done_count: job.done_count,
      failed_count: job.failed_count,
    };
  },
};
