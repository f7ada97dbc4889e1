import type { Actor } from '../../lib/actor.js';
import type { Seams } from '../../lib/seams.js';
import type { Db, Tx } from '../../db/engine.js';
import { emit, type CustomerEventType } from '../events/index.js';
import { CUSTOMER_CHANGED } from './customer-changed.seam.js';
import type { CustomerCache } from './customer-cache.service.js';
import * as repo from './customers.repository.js';
import {
  presentCustomer,
  presentCustomerForActivity,
  presentSimpleCustomer,
  relationsByCustomer,
  type CustomerObject,
} from './customers.presenter.js';

/** Who changes a customer and when; `emitEvents: false` for historical imports. */
export interface ChangeContext {
  actor: Actor;
  at: string;
  emitEvents?: boolean;
  /** The transaction's customers read by source id, when its caller keeps them (an import portion): CustomerCache. */
  customers?: CustomerCache;
  /** Given, the change fires CUSTOMER_CHANGED (segment memberships follow the customer). */
  seams?: Seams;
}

export interface UpsertResult {
  customer: CustomerObject;
  created: boolean;
  /** False when an existing customer was given nothing new (no event, no updated_at change). */
  changed: boolean;
}

/** Presents rows with their loyalty campaigns and referrals: two queries for any number of rows. */
export async function presentRows(db: Db, rows: repo.CustomerRow[]): Promise<CustomerObject[]> {
  const ids = rows.map((r) => r.id);
  const [campaigns, referrals] = await Promise.all([repo.listLoyaltyCampaigns(db, ids), repo.listReferrals(db, ids)]);
  const relations = relationsByCustomer(campaigns, referrals);
  return rows.map((row) => presentCustomer(row, relations.get(row.id) ?? { campaigns: [], referrals: [] }));
}

export const presentRow = async (db: Db, row: repo.CustomerRow): Promise<CustomerObject> =>
  (await presentRows(db, [row]))[0] as CustomerObject;

export async function emitCustomerEvent(
  trx: Tx,
  ctx: ChangeContext,
  type: CustomerEventType,
  customer: CustomerObject,
): Promise<void> {
  if (ctx.emitEvents === false) return;
  await emit(trx, {
    type,
    customer_id: customer.id,
    data: { customer: presentCustomerForActivity(customer) },
    actor: ctx.actor,
    created_at: ctx.at,
  });
}

/** What an upsert stored: the row after it, and the customer object if its event needed one. */
export interface CustomerWritten {
  row: repo.CustomerRow;
  customer?: CustomerObject;
  created: boolean;
  changed: boolean;
}

/** Tells the change's subscribers (segments), when the context carries the seams. */
export async function fireChanged(trx: Tx, ctx: ChangeContext, row: repo.CustomerRow, created: boolean): Promise<void> {
  if (!ctx.seams) return;
  const payload = {
    row,
    customer: presentSimpleCustomer(row),
    created,
    actor: ctx.actor,
    at: ctx.at,
    emitEvents: ctx.emitEvents !== false,
  };
  await ctx.seams.fire(CUSTOMER_CHANGED, trx, payload);
}

/** The change's event, presenting the customer for it; nothing (and no query) without events. */
export async function announce(
  trx: Tx,
  ctx: ChangeContext,
  type: CustomerEventType,
  row: repo.CustomerRow,
): Promise<CustomerObject | undefined> {
  if (ctx.emitEvents === false) return undefined;
  const customer = await presentRow(trx, row);
  await emitCustomerEvent(trx, ctx, type, customer);
  return customer;
}

export const presented = async (trx: Tx, written: CustomerWritten): Promise<UpsertResult> => ({
  customer: written.customer ?? (await presentRow(trx, written.row)),
  created: written.created,
  changed: written.changed,
});
