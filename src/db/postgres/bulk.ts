import { CompiledQuery } from 'kysely';
import type { BulkStatement, Tx } from '../engine.js';
import { inSavepoint } from './savepoint.js';

/** PostgreSQL takes at most 65,535 parameters a statement; a batch stays well below, and below this many rows. */
const MAX_BATCH_ROWS = 1000;
const MAX_BATCH_PARAMETERS = 30_000;

/** The parts of Kysely's one-row INSERT that a multi-row one repeats: the SQL around its VALUES tuple, and its first column. */
interface InsertShape {
  head: string;
  tail: string;
  width: number;
  firstColumn: string;
}

function shapeOf(text: string): InsertShape {
  const values = /\bvalues \((\$\d+(?:, \$\d+)*)\)/.exec(text);
  const column = /^insert into [^(]+\(("[^"]+")/.exec(text);
  if (!values || !column) throw new Error(`Not a one-row INSERT ... VALUES statement: ${text}`);
  return {
    head: text.slice(0, values.index + 'values '.length),
    tail: text.slice(values.index + values[0].length),
    width: values[1]?.split(',').length ?? 0,
    firstColumn: column[1] as string,
  };
}

/** `head (...), (...), ... tail RETURNING first column` for `rows` rows. */
function batchSql(shape: InsertShape, rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const base = r * shape.width;
    tuples.push(`(${Array.from({ length: shape.width }, (_, c) => `$${base + c + 1}`).join(', ')})`);
  }
  return `${shape.head}${tuples.join(', ')}${shape.tail} returning ${shape.firstColumn}`;
}

/** Inserts `rows` in one statement; answers which went in, by their first column. */
async function insertBatch(trx: Tx, shape: InsertShape, rows: ReadonlyArray<readonly unknown[]>): Promise<boolean[]> {
  const result = await trx.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(batchSql(shape, rows.length), rows.flat()),
  );
  const inserted = new Set(result.rows.map((row) => Object.values(row)[0]));
  return rows.map((row) => inserted.delete(row[0]));
}

/**
 * A batch that failed (a row broke a CHECK, say) is undone whole and its rows run one by one, each
 * in a savepoint, up to the one that fails: the rows before it stay, as on SQLite.
 */
async function insertOneByOne(
  trx: Tx,
  shape: InsertShape,
  rows: ReadonlyArray<readonly unknown[]>,
): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (const row of rows) {
    const [one] = await inSavepoint(trx, 'promo_bulk_row', () => insertBatch(trx, shape, [row]));
    answers.push(one === true);
  }
  return answers;
}

/**
 * The bulk statement on PostgreSQL: rows go in as multi-row INSERTs (a round trip per row would
 * cost more than the insert), `RETURNING` the first column to tell which went in and which a
 * conflict skipped. Each batch runs in a savepoint, so a failing batch leaves the transaction
 * usable (PostgreSQL aborts it otherwise) and only that batch goes row by row.
 */
export function postgresBulkStatement(query: CompiledQuery): BulkStatement {
  const shape = shapeOf(query.sql);
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_BATCH_PARAMETERS / shape.width)));
  return {
    async run(trx, rows) {
      const answers: boolean[] = [];
      for (let start = 0; start < rows.length; start += batchRows) {
        const batch = rows.slice(start, start + batchRows);
        try {
          answers.push(...(await inSavepoint(trx, 'promo_bulk', () => insertBatch(trx, shape, batch))));
        } catch {
          answers.push(...(await insertOneByOne(trx, shape, batch)));
        }
      }
      return answers;
    },
  };
}
