import type { Deps } from '../../app/deps.js';
import { isDatabaseError } from '../../db/errors.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, duplicateFound, notFound } from '../../lib/errors.js';
import { timeOrderedId } from '../../lib/ids.js';
import { parse } from '../../lib/validate.js';
import {
  announce,
  emitCustomerEvent,
  fireChanged,
  presented,
  presentRow,
  type ChangeContext,
  type UpsertResult,
  type CustomerWritten,
} from './customer-change.service.js';
import { changedColumns, patchFromFields } from './customer-patch.rules.js';
import { forgetCustomer, type CustomerCache } from './customer-cache.service.js';
import { firstOrderColumns, type FirstOrder } from './customer-summary.service.js';
import * as repo from './customers.repository.js';
import { presentSimpleCustomer, type CustomerObject, type SimpleCustomer } from './customers.presenter.js';
import { updateCustomerSchema, type CreateCustomerBody, type CustomerFields } from './customers.schemas.js';
import type { Db, Tx } from '../../db/engine.js';
import { lockedRow } from '../../db/locks.js';

type ReadDeps = Pick<Deps, 'db'>;
type WriteDeps = Pick<Deps, 'db' | 'clock'>;
type UpsertDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/** A new source_id for an existing customer must not belong to another one. */
async function sourceIdChange(
  trx: Db,
  row: repo.CustomerRow,
  sourceId: string | null | undefined,
): Promise<repo.CustomerPatch> {
  if (sourceId === undefined || sourceId === row.source_id) return {};
  if (sourceId !== null) {
    const holder = await repo.findCustomerBySourceId(trx, sourceId);
    if (holder && holder.id !== row.id) throw duplicateFound('customer', 'source_id', sourceId);
  }
  return { source_id: sourceId };
}

/** The columns a body would change on this row (checked: a source_id another customer holds is 409). */
const updatePatch = async (db: Db, row: repo.CustomerRow, input: CustomerFields): Promise<repo.CustomerPatch> =>
  changedColumns(row, { ...patchFromFields(input), ...(await sourceIdChange(db, row, input.source_id)) });

async function applyUpdate(
  trx: Tx,
  ctx: ChangeContext,
  row: repo.CustomerRow,
  input: CustomerFields,
): Promise<CustomerWritten> {
  const patch = await updatePatch(trx, row, input);
  if (Object.keys(patch).length === 0) return { row, created: false, changed: false };
  const updated = await repo.updateCustomer(trx, row.id, { ...patch, updated_at: ctx.at });
  forgetCustomer(ctx.customers, row.source_id, patch.source_id);
  if (!updated) throw notFound('customer', row.id);
  const customer = await announce(trx, ctx, 'customer.updated', updated);
  await fireChanged(trx, ctx, updated, false);
  return { row: updated, customer, created: false, changed: true };
}

const newRow = (ctx: ChangeContext, input: CreateCustomerBody) => ({
  id: timeOrderedId('cust_', ctx.at),
  source_id: input.source_id ?? null,
  name: null,
  description: null,
  email: null,
  phone: null,
  birthdate: null,
  address: null,
  metadata: '{}',
  system_metadata: '{}',
  created_at: ctx.at,
  updated_at: ctx.at,
  ...patchFromFields(input),
});

async function insertNew(
  trx: Tx,
  ctx: ChangeContext,
  input: CreateCustomerBody,
  fresh = newRow(ctx, input),
): Promise<CustomerWritten> {
  const row = await repo.insertCustomer(trx, fresh);
  forgetCustomer(ctx.customers, row.source_id);
  const customer = await announce(trx, ctx, 'customer.created', row);
  await fireChanged(trx, ctx, row, true);
  return { row, customer, created: true, changed: true };
}

/** The customer a body names (by `id`, else by `source_id`, through the cache if given); an unknown `id` is 404. */
async function namedCustomer(
  db: Db,
  input: CreateCustomerBody,
  cache?: CustomerCache,
): Promise<repo.CustomerRow | undefined> {
  if (input.id !== undefined) {
    const row = await repo.findCustomerById(db, input.id);
    if (!row) throw notFound('customer', input.id);
    return row;
  }
  if (!input.source_id) return undefined;
  const cached = cache?.get(input.source_id);
  return cached !== undefined ? (cached ?? undefined) : repo.findCustomerBySourceId(db, input.source_id);
}

/**
 * The customer is the first row a request's transaction locks (db/locks.ts: one order across
 * promo), and the update is computed from the row read after the lock. A redemption's
 * per-customer limit (a count of the customer's redemptions, then an insert) holds across
 * processes because of this lock: a redemption upserts its customer first.
 */
async function writeCustomer(trx: Tx, ctx: ChangeContext, input: CreateCustomerBody): Promise<CustomerWritten> {
  const existing = await lockedRow(trx, 'customers', await namedCustomer(trx, input), (id) =>
    repo.findCustomerById(trx, id),
  );
  return existing ? applyUpdate(trx, ctx, existing, input) : insertNew(trx, ctx, input);
}

/** A customer a body names that does not exist yet: its row, made but not written (insertPlannedCustomer). */
export interface NewCustomerPlan {
  id: string;
  input: CreateCustomerBody;
  row: ReturnType<typeof newRow>;
}

/**
 * upsertCustomerId in two halves, for an order import: an existing customer is upserted now
 * (its id comes back); a new one is only planned, and its caller inserts it later with
 * insertPlannedCustomer, its first order's figures in the insert (no summary UPDATE after).
 */
export async function upsertOrPlanCustomer(
  trx: Tx,
  ctx: ChangeContext,
  input: CreateCustomerBody,
): Promise<string | NewCustomerPlan> {
  const existing = await namedCustomer(trx, input, ctx.customers);
  if (existing) return (await applyUpdate(trx, ctx, existing, input)).row.id;
  const row = newRow(ctx, input);
  return { id: row.id, input, row };
}

/** Inserts a planned customer (upsertOrPlanCustomer), with its first order's figures when that order counts in summary.orders. */
export async function insertPlannedCustomer(
  trx: Tx,
  ctx: ChangeContext,
  plan: NewCustomerPlan,
  first: FirstOrder | undefined,
): Promise<void> {
  const row = first ? { ...plan.row, ...firstOrderColumns(first) } : plan.row;
  // Without an event, nothing reads the row back.
  if (ctx.emitEvents !== false) return void (await insertNew(trx, ctx, plan.input, row));
  await repo.insertCustomerOnly(trx, row);
  forgetCustomer(ctx.customers, row.source_id);
}

/**
 * The row upsertCustomer would leave, from reads alone (the same lookups and checks): nothing
 * is written. A validation's customer and order are previewed this way; a new customer gets
 * an id that is never stored.
 */
async function previewRow(
  db: Db,
  ctx: ChangeContext,
  input: CreateCustomerBody,
): Promise<Parameters<typeof presentSimpleCustomer>[0]> {
  const existing = await namedCustomer(db, input);
  if (!existing) return newRow(ctx, input);
  const patch = await updatePatch(db, existing, input);
  return Object.keys(patch).length === 0
    ? existing
    : ({ ...existing, ...patch, updated_at: ctx.at } as repo.CustomerRow);
}

/** upsertCustomerId from reads alone (previewRow). */
export const previewCustomerId = async (db: Db, ctx: ChangeContext, input: CreateCustomerBody): Promise<string> =>
  (await previewRow(db, ctx, input)).id;

/** The short customer upsertCustomer then findSimpleCustomer would give, from reads alone (previewRow). */
export const previewSimpleCustomer = async (
  db: Db,
  ctx: ChangeContext,
  input: CreateCustomerBody,
): Promise<SimpleCustomer> => presentSimpleCustomer(await previewRow(db, ctx, input));

/**
 * Creates a customer, or updates the one the body names (by `id`, else by `source_id`),
 * inside the caller's transaction. Orders, redemptions and imports call this with the
 * customer object they were given. An unknown `id` is 404: ids are ours to assign.
 */
export async function upsertCustomer(trx: Tx, ctx: ChangeContext, input: CreateCustomerBody): Promise<UpsertResult> {
  return presented(trx, await writeCustomer(trx, ctx, input));
}

/** upsertCustomer for a caller that needs the short customer (a redemption's): no read after the write. */
export async function upsertSimpleCustomer(
  trx: Tx,
  ctx: ChangeContext,
  input: CreateCustomerBody,
): Promise<SimpleCustomer> {
  return presentSimpleCustomer((await writeCustomer(trx, ctx, input)).row);
}

/**
 * upsertCustomer for a caller that needs only the customer's id (an order naming its
 * customer): the customer is presented only for its event, so an order import (no events)
 * spends no query on presenting it.
 */
export async function upsertCustomerId(trx: Tx, ctx: ChangeContext, input: CreateCustomerBody): Promise<string> {
  return (await writeCustomer(trx, ctx, input)).row.id;
}

/**
 * CUSTOMERS.METADATA_UPDATE, one customer: the given keys merged into the metadata of the
 * customer with that source_id (the others kept), through the same upsert as POST and PUT;
 * an unknown source_id is a new customer with that metadata (the reference upserts).
 */
export async function mergeCustomerMetadata(
  trx: Tx,
  ctx: ChangeContext,
  sourceId: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  const row = await lockedRow(trx, 'customers', await repo.findCustomerBySourceId(trx, sourceId), (id) =>
    repo.findCustomerById(trx, id),
  );
  const merged = { ...(row ? (JSON.parse(row.metadata) as Record<string, unknown>) : {}), ...metadata };
  const input = parse(updateCustomerSchema, { source_id: sourceId, metadata: merged }, 'item');
  await (row ? applyUpdate(trx, ctx, row, input) : insertNew(trx, ctx, input));
}

/** POST /v1/customers: create, or update the customer with that id or source_id. */
export async function createCustomer(deps: UpsertDeps, actor: Actor, input: CreateCustomerBody): Promise<UpsertResult> {
  return deps.db
    .transaction()
    .execute((trx) => upsertCustomer(trx, { actor, at: isoNow(deps.clock), seams: deps.seams }, input));
}

/** GET /v1/customers/{id or source_id}. */
export async function getCustomer(deps: ReadDeps, ref: string): Promise<CustomerObject> {
  const row = await repo.findCustomerByRef(deps.db, ref);
  if (!row) throw notFound('customer', ref);
  return presentRow(deps.db, row);
}

/** PUT /v1/customers/{id or source_id}: the given fields change, the others stay. */
export async function updateCustomer(
  deps: UpsertDeps,
  actor: Actor,
  ref: string,
  input: CustomerFields,
): Promise<CustomerObject> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findCustomerByRef(trx, ref);
    if (!row) throw notFound('customer', ref);
    return (
      await presented(trx, await applyUpdate(trx, { actor, at: isoNow(deps.clock), seams: deps.seams }, row, input))
    ).customer;
  });
}

const isForeignKeyError = (error: unknown): boolean => isDatabaseError(error, 'foreign_key');

/** DELETE /v1/customers/{id or source_id}: the customer, its loyalty and referral rows. */
export async function deleteCustomer(deps: WriteDeps, actor: Actor, ref: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findCustomerByRef(trx, ref);
    if (!row) throw notFound('customer', ref);
    const customer = await presentRow(trx, row);
    try {
      await repo.deleteCustomer(trx, row.id);
    } catch (error) {
      if (!isForeignKeyError(error)) throw error;
      throw new AppError('resource_in_use', `Customer ${row.id} is still referenced by other records`);
    }
    await emitCustomerEvent(trx, { actor, at: isoNow(deps.clock) }, 'customer.deleted', customer);
  });
}

/** For other modules: the short customer that redemptions, orders and events embed. */
export async function findSimpleCustomer(db: Db, ref: string): Promise<SimpleCustomer | undefined> {
  const row = await repo.findCustomerByRef(db, ref);
  return row && presentSimpleCustomer(row);
}

/** The short customers of these ids, by id (a sweep's batch reads its holders in one query). */
export async function findSimpleCustomers(db: Db, ids: string[]): Promise<Map<string, SimpleCustomer>> {
  const rows = await repo.findCustomersByIds(db, [...new Set(ids)]);
  return new Map(rows.map((row) => [row.id, presentSimpleCustomer(row)]));
}
