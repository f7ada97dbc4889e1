import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { columnsShape, queryTemplate } from '../../db/query-template.js';
import type { CounterColumn } from './ledger.types.js';
import { NEVER_EXPIRES } from './ledger.types.js';
import type { LedgerEntryTable } from './ledgers.table.js';
import type { Db } from '../../db/engine.js';

export type LedgerEntryRow = Selectable<LedgerEntryTable>;

/** The voucher's fields a ledger change reads back (RETURNING of the guarded UPDATE). */
export const CARD_FIELDS = [
  'id',
  'code',
  'type',
  'campaign_id',
  'holder_id',
  'loyalty_points',
  'loyalty_balance',
  'loyalty_next_expiration_date',
  'loyalty_next_expiration_points',
  'loyalty_pending_points',
  'loyalty_expired_points',
  'loyalty_subtracted_points',
  'redeemed_points',
  'gift_amount',
  'gift_subtracted_amount',
  'gift_balance',
  'gift_effect',
] as const;
export type CardFields = Pick<Selectable<Database['vouchers']>, (typeof CARD_FIELDS)[number]>;

// Every balance change and gift redemption reads its card: compiled once (docs/performance.md "Hot paths").
const cardById = queryTemplate<{ id: string }, CardFields>((db, param) =>
  db.selectFrom('vouchers').select(CARD_FIELDS).where('id', '=', param('id')),
);

export const findCard = async (db: Db, voucherId: string): Promise<CardFields | undefined> =>
  (await cardById(db, { id: voucherId }))[0];

export const findEntryBySourceId = (db: Db, voucherId: string, sourceId: string): Promise<LedgerEntryRow | undefined> =>
  db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('voucher_id', '=', voucherId)
    .where('source_id', '=', sourceId)
    .executeTakeFirst();

export const findEntry = (db: Db, id: string): Promise<LedgerEntryRow | undefined> =>
  db.selectFrom('ledger_entries').selectAll().where('id', '=', id).executeTakeFirst();

// On the redemption path: compiled once per set of columns (docs/performance.md "Hot paths").
const insertEntryRow = queryTemplate<Insertable<LedgerEntryTable> & Record<string, unknown>, never>(
  (db, param, columns) =>
    db
      .insertInto('ledger_entries')
      .values(
        Object.fromEntries(columns.split(',').map((column) => [column, param(column)])) as Insertable<LedgerEntryTable>,
      ),
);

export async function insertEntry(db: Db, row: Insertable<LedgerEntryTable>): Promise<void> {
  await insertEntryRow(db, row, columnsShape(row));
}

/** A transfer's OUT row names its IN row, written after it in the same transaction. */
export async function linkTransaction(db: Db, entryId: string, relatedId: string): Promise<void> {
  await db.updateTable('ledger_entries').set({ related_transaction_id: relatedId }).where('id', '=', entryId).execute();
}

export interface BalanceShift {
  voucherId: string;
  balanceColumn: 'loyalty_balance' | 'gift_balance';
  /** Signed. A negative shift is guarded: the balance never goes below zero. */
  delta: number;
  counter: { column: CounterColumn; delta: number } | null;
  /** A debit that must leave the session locks' reservations alone (every debit but expiry). */
  respectReserved?: boolean;
  at: string;
}

type ShiftParams = { id: string; delta: number; min: number; counter_delta: number; counter_min: number; at: string };

// Every ledger change runs this (and a batch of expiring buckets once per card): built once
// per shape (the columns it moves, and whether the counter is guarded), not per change.
const shift = queryTemplate<ShiftParams, CardFields>((db, param, shape) => {
  const [balance, counter, guardCounter, reserved] = shape.split(':') as [
    'loyalty_balance' | 'gift_balance',
    CounterColumn | '',
    string,
    string,
  ];
  const held = balance === 'loyalty_balance' ? 'reserved_points' : 'reserved_credits';
  let query = db
    .updateTable('vouchers')
    .set((eb) => ({
      [balance]: eb(eb.ref(balance), '+', param('delta')),
      ...(counter ? { [counter]: eb(eb.ref(counter), '+', param('counter_delta')) } : {}),
      updated_at: param('at'),
    }))
    .where('id', '=', param('id'))
    // A debit leaves what live session locks hold (sql/0020) on the card.
    .where((eb) =>
      reserved ? eb(eb(eb.ref(balance), '-', eb.ref(held)), '>=', param('min')) : eb(balance, '>=', param('min')),
    );
  if (counter && guardCounter === 'guarded') query = query.where(counter, '>=', param('counter_min'));
  return query.returning(CARD_FIELDS);
});

/**
 * THE balance change: one guarded UPDATE of the voucher (`balance + delta >= 0`, and the
 * counter's too when it shrinks). Undefined when the guard refused (or no such card).
 */
export async function shiftBalance(db: Db, s: BalanceShift): Promise<CardFields | undefined> {
  const counter = s.counter;
  const shape = `${s.balanceColumn}:${counter?.column ?? ''}:${counter && counter.delta < 0 ? 'guarded' : ''}:${s.respectReserved ? 'reserved' : ''}`;
  const params = {
    id: s.voucherId,
    delta: s.delta,
    min: Math.max(0, -s.delta),
    counter_delta: counter?.delta ?? 0,
    counter_min: -(counter?.delta ?? 0),
    at: s.at,
  };
  return (await shift(db, params, shape))[0];
}

/** Pending points move by one guarded statement too; undefined when it would go below zero. */
export const shiftPendingPoints = (
  db: Db,
  voucherId: string,
  delta: number,
  at: string,
): Promise<CardFields | undefined> =>
  db
    .updateTable('vouchers')
    .set((eb) => ({
      loyalty_pending_points: eb(eb.fn.coalesce('loyalty_pending_points', eb.val(0)), '+', delta),
      updated_at: at,
    }))
    .where('id', '=', voucherId)
    .where('type', '=', 'LOYALTY_CARD')
    .where((eb) => eb(eb(eb.fn.coalesce('loyalty_pending_points', eb.val(0)), '+', delta), '>=', 0))
    .returning(CARD_FIELDS)
    .executeTakeFirst();

export async function setNextExpiration(db: Db, voucherId: string, date: string | null, points: number): Promise<void> {
  await db
    .updateTable('vouchers')
    .set({ loyalty_next_expiration_date: date, loyalty_next_expiration_points: points })
    .where('id', '=', voucherId)
    .execute();
}

/** Gives a card without a holder to a customer (guarded: holder_id IS NULL). */
export const setHolder = (db: Db, voucherId: string, customerId: string, at: string): Promise<CardFields | undefined> =>
  db
    .updateTable('vouchers')
    .set({ holder_id: customerId, updated_at: at })
    .where('id', '=', voucherId)
    .where('holder_id', 'is', null)
    .returning(CARD_FIELDS)
    .executeTakeFirst();

/** The card by code, if its campaign is live (a deleted campaign's cards are gone already). */
export const findLedgerCardByCode = (db: Db, code: string): Promise<CardFields | undefined> =>
  db
    .selectFrom('vouchers as v')
    .leftJoin('campaigns as c', 'c.id', 'v.campaign_id')
    .select(CARD_FIELDS.map((f) => `v.${f}` as const))
    .where('v.code', '=', code)
    .where((eb) => eb.or([eb('v.campaign_id', 'is', null), eb('c.deleted_at', 'is', null)]))
    .executeTakeFirst();

/**
 * One page of a card's rows in seq order (ledger_entries_voucher holds the rowid), after the
 * cursor row's seq when given: rows appended meanwhile never shift the pages already read.
 * The opening rows a loyalty card gets with its starting points (sql/0009_ledgers.sql) keep
 * the ledger's sums whole but are no transaction the reference lists: a new card's list is
 * empty. A gift card's opening credits stay listed.
 */
export function listEntries(
  db: Db,
  voucherId: string,
  page: { limit: number; afterSeq?: number; descending: boolean },
): Promise<LedgerEntryRow[]> {
  let query = db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('voucher_id', '=', voucherId)
    .where(
      sql<boolean>`NOT (reason IS NOT DISTINCT FROM 'Opening balance' AND operation_type = 'AUTOMATIC' AND substr(type, 1, 7) = 'POINTS_')`,
    );
  if (page.afterSeq !== undefined) query = query.where('seq', page.descending ? '<' : '>', page.afterSeq);
  return query
    .orderBy('seq', page.descending ? 'desc' : 'asc')
    .limit(page.limit)
    .execute();
}

/** A redemption's debit on a card (on the card's index: a card has few rows per redemption). */
export const findRedemptionEntry = (
  db: Db,
  voucherId: string,
  redemptionId: string,
): Promise<LedgerEntryRow | undefined> =>
  db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('voucher_id', '=', voucherId)
    .where('redemption_id', '=', redemptionId)
    .where('type', 'in', ['POINTS_REDEMPTION', 'CREDITS_REDEMPTION'])
    .executeTakeFirst();
