import { NoResultError, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { inBatches } from '../../db/batches.js';
import { columnsShape, insertTemplate, queryTemplate } from '../../db/query-template.js';
import type { OrderStatus } from '../../lib/enums.js';
import type { OrderItemTable, OrderTable } from './orders.table.js';
import type { Db } from '../../db/engine.js';

export type OrderRow = Selectable<OrderTable>;
export type NewOrderRow = Insertable<OrderTable>;
export type OrderPatch = Updateable<OrderTable>;
export type OrderItemRow = Selectable<OrderItemTable>;

export const findOrderById = (db: Db, id: string): Promise<OrderRow | undefined> =>
  db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();

// The statements every order of an import runs are query templates (db/sqlite/query-template.ts):
// Kysely builds each once instead of once per order.
const bySourceId = queryTemplate<{ source_id: string }, OrderRow>((db, param) =>
  db.selectFrom('orders').selectAll().where('source_id', '=', param('source_id')),
);

export const findOrderBySourceId = async (db: Db, sourceId: string): Promise<OrderRow | undefined> =>
  (await bySourceId(db, { source_id: sourceId }))[0];

/** A path's order reference: an id first, then a source id. */
export const findOrderByRef = async (db: Db, ref: string): Promise<OrderRow | undefined> =>
  (await findOrderById(db, ref)) ?? (await findOrderBySourceId(db, ref));

/** Every column but those the database makes: an insert of one sets them all (the nullable ones too). */
export type FullOrderRow = Omit<OrderRow, 'seq' | 'total_amount' | 'redemptions'>;

/** A full row, with the `redemptions` map when it has one (a redeemed order, a stored one changed). */
export type OrderRowInput = FullOrderRow & Partial<Pick<OrderRow, 'redemptions'>>;

/** The row the database holds after inserting this one with that seq: total_amount is the generated column's formula (sql/0008), redemptions the row's or its default. */
// Every column named (not a spread of `row`): every order of an import builds one.
export const asStored = (row: OrderRowInput, seq: number): OrderRow => ({
  seq,
  id: row.id,
  source_id: row.source_id,
  status: row.status,
  amount: row.amount,
  initial_amount: row.initial_amount,
  discount_amount: row.discount_amount,
  items_discount_amount: row.items_discount_amount,
  total_amount: row.amount - row.discount_amount - row.items_discount_amount,
  metadata: row.metadata,
  customer_id: row.customer_id,
  referrer_id: row.referrer_id,
  redemptions: row.redemptions ?? '{}',
  paid_at: row.paid_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

// Only seq comes back: RETURNING * cost ~4 us an insert (SQLite's result row and its object),
// and every order of an import inserts one.
const insertRow = queryTemplate<FullOrderRow & Record<string, unknown>, { seq: number }>((db, param, columns) =>
  db
    .insertInto('orders')
    .values(Object.fromEntries(columns.split(',').map((column) => [column, param(column)])) as NewOrderRow)
    .returning('seq'),
);

/** Inserts the row (a redeemed one with its `redemptions` map); answers it as stored (asStored). */
export async function insertOrder(db: Db, row: OrderRowInput): Promise<OrderRow> {
  const [inserted] = await insertRow(db, row, columnsShape(row));
  return asStored(row, (inserted as { seq: number }).seq);
}

// On the redemption path: compiled once per set of columns (docs/performance.md "Hot paths").
const updateRow = queryTemplate<OrderPatch & { id: string }, OrderRow>((db, param, columns) =>
  db
    .updateTable('orders')
    .set(
      Object.fromEntries(
        columns.split(',').map((column) => [column, param(column as keyof OrderPatch & string)]),
      ) as OrderPatch,
    )
    .where('id', '=', param('id'))
    .returningAll(),
);

export async function updateOrder(db: Db, id: string, patch: OrderPatch): Promise<OrderRow> {
  const [row] = await updateRow(db, { ...patch, id }, columnsShape(patch as Record<string, unknown>));
  if (!row) throw new NoResultError(db.updateTable('orders').where('id', '=', id).toOperationNode());
  return row;
}

const insertItemRows = insertTemplate('order_items');

/** An order's items in one statement (a template per number of items). */
export const insertOrderItemRows = (db: Db, rows: OrderItemRow[]): Promise<void> => insertItemRows(db, rows);

/** An order's items are replaced as a whole, as an update sends them. */
export async function replaceItems(db: Db, orderId: string, rows: OrderItemRow[]): Promise<void> {
  await db.deleteFrom('order_items').where('order_id', '=', orderId).execute();
  await insertOrderItemRows(db, rows);
}

/** The items of several orders in one query (no N+1 on lists), each order's in its order. */
export const listOrderItemRows = (db: Db, orderIds: readonly string[]): Promise<OrderItemRow[]> =>
  inBatches(orderIds, (batch) =>
    db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', 'in', batch)
      .orderBy('order_id')
      .orderBy('position')
      .execute(),
  );

/**
 * The paid-order seam's guard: marks the order paid unless it ever was. One statement, so of
 * any number of concurrent writers exactly one gets the row back.
 */
export const claimPaid = async (db: Db, id: string, at: string): Promise<boolean> =>
  (await db
    .updateTable('orders')
    .set({ paid_at: at })
    .where('id', '=', id)
    .where('paid_at', 'is', null)
    .returning('id')
    .executeTakeFirst()) !== undefined;

/** The latest order of a customer with this status (by created_at, then insertion). */
const latestWithStatus = (db: Db, customerId: string, status: OrderStatus) =>
  db
    .selectFrom('orders')
    .select(['total_amount', 'created_at', 'seq'])
    .where('customer_id', '=', customerId)
    .where('status', '=', status)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();

/**
 * A customer's latest order that counts in summary.orders (PAID or FULFILLED): one indexed
 * lookup per status, so its cost does not grow with the customer's orders.
 */
export async function findLatestCountedOrder(
  db: Db,
  customerId: string,
): Promise<{ total_amount: number; created_at: string } | undefined> {
  const found = [await latestWithStatus(db, customerId, 'PAID'), await latestWithStatus(db, customerId, 'FULFILLED')];
  const later = (a: (typeof found)[number], b: (typeof found)[number]) =>
    !a || (b && (b.created_at > a.created_at || (b.created_at === a.created_at && b.seq > a.seq))) ? b : a;
  const latest = later(found[0], found[1]);
  return latest && { total_amount: latest.total_amount, created_at: latest.created_at };
}

type ItemFigures = {
  discount_amount: number;
  discount_quantity: number | null;
  quantity?: number;
  amount?: number | null;
};

// Compiled once per set of figures (a redemption changes two or three of an order's items).
const itemFigures = queryTemplate<ItemFigures & { orderId: string; position: number }, never>((db, param, shape) =>
  db
    .updateTable('order_items')
    .set(Object.fromEntries(shape.split(',').map((column) => [column, param(column as keyof ItemFigures)])))
    .where('order_id', '=', param('orderId'))
    .where('position', '=', param('position')),
);

/** An item's discount figures after a redemption (its position in the order). */
export const updateItemFigures = async (
  db: Db,
  orderId: string,
  position: number,
  figures: ItemFigures,
): Promise<void> => {
  await itemFigures(db, { ...figures, orderId, position }, columnsShape(figures));
};

export const countItems = async (db: Db, orderId: string): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('order_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).n,
  );
