import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ExportStatus } from '../../lib/enums.js';
import type { ExportRow, ExportSource } from './export-sources.js';
import type { ExportTable } from './exports.table.js';

type Db = Kysely<Database>;
export type ExportRecord = Selectable<ExportTable>;

export const insertExport = (db: Db, row: Insertable<ExportTable>) => db.insertInto('exports').values(row).execute();

export const findExport = (db: Db, id: string): Promise<ExportRecord | undefined> => db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst();

export async function updateExport(db: Db, id: string, patch: Updateable<ExportTable>): Promise<boolean> {
  const result = await db.updateTable('exports').set(patch).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteExport(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('exports').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A page of the list: by created_at (exports_created_at) or status then created_at (exports_status_created_at), seq breaking ties. */
export function listExportPage(db: Db, q: { field: 'created_at' | 'status'; desc: boolean; offset: number; limit: number }): Promise<ExportRecord[]> {
  const direction = q.desc ? 'desc' : 'asc';
  let query = db.selectFrom('exports').selectAll();
  if (q.field === 'status') query = query.orderBy('status', direction);
  return query.orderBy('created_at', direction).orderBy('seq', direction).limit(q.limit).offset(q.offset).execute();
}

export async function countExports(db: Db): Promise<number> {
  const row = await db.selectFrom('exports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/*
 * The exported tables are named by each source (export-sources.ts), so these queries are
 * built on an untyped view of the schema: the columns come from the source's own lists.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const untyped = (db: Db): Kysely<any> => db as unknown as Kysely<any>;

/** The source's highest seq now (0: empty): the export holds the rows that existed at its request. */
export async function findMaxSeq(db: Db, source: ExportSource): Promise<number> {
  const row = (await untyped(db).selectFrom(source.table).select((eb) => eb.fn.max('seq').as('n')).executeTakeFirst()) as { n: number | null } | undefined;
  return row?.n ?? 0;
}

/** How many of the source's rows an export to `maxSeq` walks (its job's total). */
export async function countUpTo(db: Db, source: ExportSource, maxSeq: number): Promise<number> {
  const row = (await untyped(db).selectFrom(source.table).select((eb) => eb.fn.countAll().as('n')).where('seq', '<=', maxSeq).executeTakeFirstOrThrow()) as { n: number };
  return Number(row.n);
}

export interface KeysetPage {
  /** null: the row's seq. */
  orderColumn: string | null;
  descending: boolean;
  /** The last row read: [its order value, its seq] (the value is the seq again when orderColumn is null). */
  after: [unknown, number] | null;
  maxSeq: number;
  limit: number;
}

/**
 * The next `limit` rows of the source after `after`, streamed (better-sqlite3's iterate) so a
 * page is never held in memory whole. The walk is a keyset seek on the order's index: the
 * column's index ends in the rowid (seq), so `(column, seq) > (?, ?) ORDER BY column, seq`
 * reads in index order without a sort, however deep the export is.
 */
export function streamSourcePage(db: Db, source: ExportSource, page: KeysetPage): AsyncIterableIterator<ExportRow> {
  const table = source.table;
  let query = untyped(db)
    .selectFrom(table)
    .select([...source.columns.map((c) => `${table}.${c}`), `${table}.seq`])
    .select((eb) => (source.lookups ?? []).map((l) => eb.selectFrom(l.table).select(`${l.table}.${l.column}`).whereRef(`${l.table}.id`, '=', `${table}.${l.via}`).as(l.as)))
    .where(`${table}.seq`, '<=', page.maxSeq);
  const cmp = page.descending ? '<' : '>';
  const direction = page.descending ? 'desc' : 'asc';
  if (page.orderColumn === null) {
    if (page.after) query = query.where(`${table}.seq`, cmp, page.after[1]);
  } else {
    if (page.after) query = query.where((eb) => eb(eb.refTuple(`${table}.${page.orderColumn}`, `${table}.seq`), cmp, eb.tuple(page.after![0], page.after![1])));
    query = query.orderBy(`${table}.${page.orderColumn}`, direction);
  }
  return query.orderBy(`${table}.seq`, direction).limit(page.limit).stream(500) as AsyncIterableIterator<ExportRow>;
}
