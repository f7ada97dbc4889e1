import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { ExportStatus } from '../../lib/enums.js';
import type { ExportRow, ExportSource } from './export-sources.rules.js';
import type { ExportTable } from './exports.table.js';
import type { DynamicSchema } from '../../db/database.js';
import type { Db } from '../../db/engine.js';
import { dialectOf } from '../../db/dialect.js';
import { streamRows } from '../../db/stream.js';

export type ExportRecord = Selectable<ExportTable>;

export const insertExport = (db: Db, row: Insertable<ExportTable>) => db.insertInto('exports').values(row).execute();

export const findExport = (db: Db, id: string): Promise<ExportRecord | undefined> =>
  db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst();

export async function updateExport(db: Db, id: string, patch: Updateable<ExportTable>): Promise<boolean> {
  const result = await db.updateTable('exports').set(patch).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteExport(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('exports').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A page of the list: by created_at (exports_created_at) or status then created_at (exports_status_created_at), seq breaking ties. */
export function listExportPage(
  db: Db,
  q: { field: 'created_at' | 'status'; desc: boolean; offset: number; limit: number },
): Promise<ExportRecord[]> {
  const direction = q.desc ? 'desc' : 'asc';
  let query = db.selectFrom('exports').selectAll();
  if (q.field === 'status') query = query.orderBy('status', direction);
  return query.orderBy('created_at', direction).orderBy('seq', direction).limit(q.limit).offset(q.offset).execute();
}

export async function countExports(db: Db): Promise<number> {
  const row = await db
    .selectFrom('exports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every export with how far its snapshot reaches: the highest seq its job walks (in the job's payload). */
export const listExportReaches = (db: Db) =>
  db
    .selectFrom('exports')
    .innerJoin('async_actions', 'async_actions.id', 'exports.async_action_id')
    .select([
      'exports.id',
      'exports.exported_object',
      'exports.parameters',
      // PostgreSQL reads a JSON value as text: cast, so both engines answer a number.
      sql<number>`cast(${dialectOf(db).jsonValue('async_actions.payload', ['max_seq'])} as bigint)`.as('max_seq'),
    ])
    .execute();

/*
 * The exported tables are named by each source (export-sources.rules.ts), so these queries are
 * built on an untyped view of the schema: the columns come from the source's own lists.
 */
const untyped = (db: Db): Kysely<DynamicSchema> => db as unknown as Kysely<DynamicSchema>;

/** The source's highest seq now (0: empty): the export holds the rows that existed at its request. */
export async function findMaxSeq(db: Db, source: ExportSource): Promise<number> {
  const row = (await untyped(db)
    .selectFrom(source.table)
    .select((eb) => eb.fn.max('seq').as('n'))
    .executeTakeFirst()) as { n: number | null } | undefined;
  return row?.n ?? 0;
}

export interface KeysetPage {
  /** The columns and lookups to select (export-sources.rules.ts columnsFor); seq always comes too. */
  columns: readonly string[];
  /** null: the row's seq. */
  orderColumn: string | null;
  descending: boolean;
  /** The last row read: [its order value, its seq] (the value is the seq again when orderColumn is null). */
  after: [unknown, number] | null;
  maxSeq: number;
  limit: number;
}

type Untyped = SelectQueryBuilder<DynamicSchema, string, ExportRow>;

/** Rows fetched at a time while a page streams. */
const CHUNK = 500;

/**
 * The source's row query, without its walk: the columns, the lookups, rows up to `seqBound`.
 * `index` names the index it must read (db/dialect.ts indexedTable).
 */
function rowsOf(db: Db, source: ExportSource, columns: readonly string[], seqBound: number, index?: string): Untyped {
  const table = source.table;
  const lookups = (source.lookups ?? []).filter((l) => columns.includes(l.as));
  const own = columns.filter((c) => !lookups.some((l) => l.as === c));
  const from = index === undefined ? table : dialectOf(db).indexedTable(table, index);
  return untyped(db)
    .selectFrom(from)
    .select([...own.map((c) => `${table}.${c}`), `${table}.seq`])
    .select((eb) =>
      lookups.map((l) =>
        eb
          .selectFrom(l.table)
          .select(`${l.table}.${l.column}`)
          .whereRef(`${l.table}.id`, '=', `${table}.${l.via}`)
          .as(l.as),
      ),
    )
    .where(`${table}.seq`, '<=', seqBound) as Untyped;
}

/**
 * Rows past `seq` in the walk's direction, up to maxSeq. Descending, the two upper bounds are
 * merged into one: given both (`seq <= ? AND seq < ?`), SQLite seeks on one and filtered the
 * other row by row in a tie of 200,000 rows (40 ms instead of 1 ms).
 */
function pastSeq(db: Db, source: ExportSource, page: KeysetPage, seq: number, index?: string): Untyped {
  return page.descending
    ? rowsOf(db, source, page.columns, Math.min(page.maxSeq, seq - 1), index)
    : rowsOf(db, source, page.columns, page.maxSeq, index).where(`${source.table}.seq`, '>', seq);
}

/**
 * The next `limit` rows of the source after `after`, streamed (db/stream.ts: better-sqlite3's
 * iterate, or a PostgreSQL cursor in the portion's transaction) so a page is never held in
 * memory whole. The walk is a keyset seek on the order's index, whose
 * entries end in the rowid (seq), so it reads in index order without a sort at any depth. It
 * takes two seeks: first the rows that tie with the last one on the order's column
 * (`column = ? AND seq > ?`, a seek on both), then those past it (`column > ?`). One row-value
 * seek, `(column, seq) > (?, ?)`, seeks only on the column and walks every tie before the
 * position: a million vouchers generated in one second would cost a quadratic walk.
 */
export async function* streamSourcePage(db: Db, source: ExportSource, page: KeysetPage): AsyncGenerator<ExportRow> {
  const table = source.table;
  const direction = page.descending ? 'desc' : 'asc';
  const past = page.descending ? '<' : '>';
  const after = page.after;
  if (page.orderColumn === null) {
    const rest = after === null ? rowsOf(db, source, page.columns, page.maxSeq) : pastSeq(db, source, page, after[1]);
    yield* streamRows(db, rest.orderBy(`${table}.seq`, direction).limit(page.limit), CHUNK);
    return;
  }
  const column = `${table}.${page.orderColumn}`;
  let left = page.limit;
  if (after !== null) {
    const ties = pastSeq(db, source, page, after[1], source.tieIndexes?.[page.orderColumn]);
    for await (const row of streamRows(
      db,
      ties.where(column, '=', after[0]).orderBy(`${table}.seq`, direction).limit(left),
      CHUNK,
    )) {
      left -= 1;
      yield row;
    }
    if (left === 0) return;
  }
  const rest =
    after === null
      ? rowsOf(db, source, page.columns, page.maxSeq)
      : rowsOf(db, source, page.columns, page.maxSeq).where(column, past, after[0]);
  yield* streamRows(db, rest.orderBy(column, direction).orderBy(`${table}.seq`, direction).limit(left), CHUNK);
}
