import { computeOrderAmounts, type ItemFigures } from '../../engine/orders/amounts.js';
import type { Actor } from '../../lib/actor.js';
import { parseIsoDate } from '../../lib/dates.js';
import { invalidPayload, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Seams } from '../../lib/seams.js';
import type { CatalogCache } from '../catalog/index.js';
import {
  findSimpleCustomer,
  previewCustomerId,
  upsertCustomerId,
  upsertOrPlanCustomer,
  type NewCustomerPlan,
  type ChangeContext,
  type CustomerCache,
  type SimpleCustomer,
} from '../customers/index.js';
import { PREVIEW_CATALOG, STORE_CATALOG, type CatalogUpserts } from './catalog-upserts.service.js';
import { resolveItems } from './order-items.service.js';
import type { FullOrderRow, OrderItemRow, OrderRow } from './orders.repository.js';
import type { CreateOrderBody, OrderItemBody } from './orders.schemas.js';
import type { Db, Tx } from '../../db/engine.js';

/** Who stores an order, when, and the seams it may fire. */
export interface OrderContext {
  actor: Actor;
  at: string;
  seams: Seams;
  /**
   * The customer the caller has just upserted or previewed (a redemption's, a validation's):
   * an order that names it by id alone takes it as it is, without a lookup (a previewed one
   * may not be stored), and the order's events embed it.
   */
  customer?: SimpleCustomer;
  /** The transaction's cache of catalog reads, when its caller keeps one (an import portion's orders). */
  catalog?: CatalogCache;
  /** The transaction's customers read by source id, when its caller keeps them (an import portion's orders). */
  customers?: CustomerCache;
}

/**
 * What a caller's path through upsertOrder does besides storing the order. The API does
 * everything; order import (voucherify-facts 1.13: historical orders) keeps the order's own
 * created_at and the summaries but writes no events and fires no paid-order seam.
 */
export interface UpsertOptions {
  emitEvents: boolean;
  firePaidSeam: boolean;
  keepCreatedAt: boolean;
  /**
   * Summaries as history (an import's; docs/deviations.md "An order import is history"): the order's figures in
   * summary.orders keep the customer's updated_at, and a new customer the order names (with
   * no referrer object beside it) is inserted with the order's figures, no UPDATE after.
   */
  historySummaries: boolean;
}

export const API_UPSERT: UpsertOptions = {
  emitEvents: true,
  firePaidSeam: true,
  keepCreatedAt: false,
  historySummaries: false,
};
export const IMPORT_UPSERT: UpsertOptions = {
  emitEvents: false,
  firePaidSeam: false,
  keepCreatedAt: true,
  historySummaries: true,
};

/** The columns an upsert decides (the rest are the order's identity and bookkeeping). */
export type OrderColumns = Omit<FullOrderRow, 'id' | 'paid_at' | 'updated_at'>;

/** The stored order an upsert starts from, if any. */
export interface StoredOrder {
  row: OrderRow;
  items: OrderItemRow[];
}

/** An item's stored content: its row without the keys that place it. */
export type ItemContent = Omit<OrderItemRow, 'order_id' | 'position' | 'id'>;

export interface OrderDraft {
  columns: OrderColumns;
  /** The new items, when the body sent items; undefined keeps the stored ones. */
  items?: ItemContent[];
  /** The order's new customer, planned but not inserted yet (historySummaries): the order's insert inserts it first. */
  newCustomer?: NewCustomerPlan;
}

/**
 * How the customers and catalog entries an order names come to be: upserted in the caller's
 * transaction (storeOrder), or previewed from the same reads and checks, writing nothing
 * (previewOrder: a validation's order).
 */
export interface OrderUpserts<D extends Db> extends CatalogUpserts<D> {
  customerId: (db: D, ctx: ChangeContext, input: NonNullable<CreateOrderBody['customer']>) => Promise<string>;
  /** Stored orders only: a new customer planned for the order's insert (historySummaries), or upserted. */
  planCustomer?: (
    db: D,
    ctx: ChangeContext,
    input: NonNullable<CreateOrderBody['customer']>,
  ) => ReturnType<typeof upsertOrPlanCustomer>;
}

export const STORE_UPSERTS: OrderUpserts<Tx> = {
  ...STORE_CATALOG,
  customerId: upsertCustomerId,
  planCustomer: upsertOrPlanCustomer,
};
export const PREVIEW_UPSERTS: OrderUpserts<Db> = { ...PREVIEW_CATALOG, customerId: previewCustomerId };

/** The customer (or referrer) an order names, upserted with the fields sent. */
async function customerIdOf<D extends Db>(
  trx: D,
  ctx: ChangeContext,
  body: CreateOrderBody['customer'],
  upserts: OrderUpserts<D>,
  known: SimpleCustomer | undefined,
): Promise<string | undefined> {
  if (!body) return undefined;
  const namesKnown =
    known !== undefined && body.id === known.id && Object.values(body).filter((v) => v !== undefined).length === 1;
  return namesKnown ? known.id : upserts.customerId(trx, ctx, body);
}

/**
 * The order's customer: upserted (customerIdOf), or for a new order stored with
 * historySummaries and no referrer object (which might name the same new customer), a new
 * customer is only planned, for the order's insert to insert with its figures.
 */
async function orderCustomer<D extends Db>(
  trx: D,
  ctx: ChangeContext,
  input: CreateOrderBody,
  stored: StoredOrder | undefined,
  options: UpsertOptions,
  upserts: OrderUpserts<D>,
  known: SimpleCustomer | undefined,
): Promise<{ id?: string; plan?: NewCustomerPlan }> {
  const plans = options.historySummaries && upserts.planCustomer && !stored && !input.referrer && !known;
  if (!plans || !upserts.planCustomer || !input.customer)
    return { id: await customerIdOf(trx, ctx, input.customer, upserts, known) };
  const found = await upserts.planCustomer(trx, ctx, input.customer);
  return typeof found === 'string' ? { id: found } : { id: found.id, plan: found };
}

async function referrerIdOf<D extends Db>(
  trx: D,
  ctx: ChangeContext,
  input: CreateOrderBody,
  stored: OrderRow | undefined,
  upserts: OrderUpserts<D>,
  known: SimpleCustomer | undefined,
): Promise<string | null> {
  const upserted = await customerIdOf(trx, ctx, input.referrer, upserts, known);
  if (upserted !== undefined) return upserted;
  if (input.referrer_id === undefined) return stored?.referrer_id ?? null;
  if (input.referrer_id === null) return null;
  const referrer = await findSimpleCustomer(trx, input.referrer_id);
  if (!referrer) throw notFound('customer', input.referrer_id);
  return referrer.id;
}

const json = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));

async function itemContents<D extends Db>(
  trx: D,
  ctx: OrderContext,
  items: OrderItemBody[],
  upserts: OrderUpserts<D>,
): Promise<ItemContent[]> {
  return (await resolveItems(trx, items, ctx.at, upserts, ctx.catalog)).map((item) => ({
    source_id: item.body.source_id ?? null,
    related_object: item.body.related_object ?? null,
    product_id: item.productId,
    sku_id: item.skuId,
    quantity: item.body.quantity ?? null,
    discount_quantity: item.body.discount_quantity ?? null,
    initial_quantity: item.body.initial_quantity ?? null,
    amount: item.body.amount ?? null,
    discount_amount: item.body.discount_amount ?? 0,
    initial_amount: item.body.initial_amount ?? null,
    price: item.price,
    product: json(item.product),
    sku: json(item.sku),
    metadata: json(item.body.metadata),
  }));
}

/**
 * The amounts (engine/orders/amounts.ts), and the items with their amounts: an item's amount
 * is price x quantity when it was not sent.
 */
function amountsOf(input: CreateOrderBody, stored: OrderRow | undefined, items: ItemContent[], itemsSent: boolean) {
  const figures: ItemFigures[] = items;
  const computed = computeOrderAmounts({
    amount: input.amount ?? (itemsSent ? undefined : stored?.amount),
    discount_amount: input.discount_amount ?? stored?.discount_amount,
    items: figures,
  });
  if (!computed.ok) throw invalidPayload(computed.problems.join('; '));
  return {
    order: computed.order,
    items: items.map((item, i) => ({ ...item, amount: computed.items[i]?.amount ?? null })),
  };
}

function createdAtOf(input: CreateOrderBody, stored: OrderRow | undefined, at: string, options: UpsertOptions): string {
  const sent = options.keepCreatedAt && input.created_at != null ? parseIsoDate(input.created_at) : null;
  return sent ?? stored?.created_at ?? at;
}

/** How an order's writes of its customers are made: by whom, when, with events or not, through the transaction's customer cache if any. */
export const customerContext = (ctx: OrderContext, options: UpsertOptions): ChangeContext => ({
  actor: ctx.actor,
  at: ctx.at,
  emitEvents: options.emitEvents,
  customers: ctx.customers,
  seams: ctx.seams,
});

/**
 * The order as it will be after this body: the stored order (if any) with the fields sent.
 * Customers and catalog entries the body names are upserted on the way, in the caller's
 * transaction (or previewed: `upserts`). Null means "not sent" except for source_id, metadata
 * and referrer_id, which it clears.
 */
export async function draftOrder<D extends Db>(
  trx: D,
  ctx: OrderContext,
  stored: StoredOrder | undefined,
  input: CreateOrderBody,
  options: UpsertOptions,
  upserts: OrderUpserts<D>,
) {
  const customerCtx = customerContext(ctx, options);
  const before = stored?.row;
  const customer = await orderCustomer(trx, customerCtx, input, stored, options, upserts, ctx.customer);
  const customerId = customer.id ?? before?.customer_id ?? null;
  const referrerId = await referrerIdOf(trx, customerCtx, input, before, upserts, ctx.customer);
  const sentItems = input.items == null ? undefined : await itemContents(trx, ctx, input.items, upserts);
  const { order: amounts, items } = amountsOf(
    input,
    before,
    sentItems ?? stored?.items.map(contentOf) ?? [],
    sentItems !== undefined,
  );
  const columns: OrderColumns = {
    source_id: input.source_id !== undefined ? input.source_id : (before?.source_id ?? null),
    status: input.status ?? before?.status ?? 'CREATED',
    amount: amounts.amount,
    initial_amount: input.initial_amount ?? before?.initial_amount ?? null,
    discount_amount: amounts.discount_amount,
    items_discount_amount: amounts.items_discount_amount,
    metadata: input.metadata !== undefined ? JSON.stringify(input.metadata ?? {}) : (before?.metadata ?? '{}'),
    customer_id: customerId,
    referrer_id: referrerId,
    created_at: createdAtOf(input, before, ctx.at, options),
  };
  return { columns, items: sentItems && items, newCustomer: customer.plan } satisfies OrderDraft;
}

/** A new order's row from its draft (a PAID one is paid now). */
export const newOrderRow = (ctx: OrderContext, id: string, draft: OrderDraft) =>
  ({
    id,
    ...draft.columns,
    paid_at: draft.columns.status === 'PAID' ? ctx.at : null,
    updated_at: null,
  }) satisfies FullOrderRow;

/** Item rows of an order, with fresh ids, in the order given. */
export const itemRows = (orderId: string, items: ItemContent[]): OrderItemRow[] =>
  items.map((item, position) => ({ order_id: orderId, position, id: newId('ordli_'), ...item }));

/** An item's stored content, for telling whether a re-sent order changed its items. */
export const contentOf = ({ order_id: _order, position: _position, id: _id, ...content }: OrderItemRow): ItemContent =>
  content;
