import pg from 'pg';
import { AppError } from '../../lib/errors.js';
import { TableChecksum, valueClassOf, type ValueClass } from '../copy-checksum.js';
import type { Migration } from '../migrations.js';
import { checkCollation, promoTypes } from './connect.js';
import { applyPending, lockMigrationsInTransaction } from './migrate.js';

/** A table of the target as promo copy fills it. */
export interface TargetTable {
  name: string;
  /** Stored columns (generated ones excluded) and how their values compare. */
  columns: Map<string, ValueClass>;
  /** One of the four counters kept in 16 slots (docs/postgres.md): copied into slot 0. */
  slotted: boolean;
  identity?: string;
}

/**
 * The PostgreSQL side of promo copy: one transaction from the emptiness check to the last
 * checksum, so a copy that fails anywhere leaves the database as empty as it found it.
 */
export interface CopyTarget {
  tables: Map<string, TargetTable>;
  /** Every table, parents before the tables whose foreign keys name them. */
  order: string[];
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  /** A counter's totals, each into slot 0 of its key (the other 15 stay 0). */
  setCounters(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  /** Identities past the copied rows; triggers back on. */
  finish(): Promise<void>;
  checksum(table: string, columns: readonly string[]): Promise<TableChecksum>;
  commit(): Promise<void>;
  /** Rolls back unless committed, and disconnects. */
  close(): Promise<void>;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters a statement. */
const rowsPerInsert = (columns: number) => Math.max(1, Math.min(1000, Math.floor(65_000 / columns)));

/**
 * Opens the target at `url` for promo copy: begins the transaction, takes the migrations'
 * advisory lock (a server starting meanwhile waits rather than migrating beside the copy),
 * checks the collation, refuses a database that holds any table, applies `migrations`, and
 * turns the tables' own triggers off for the copy: the rows arrive as the source holds them
 * (member keys, counters...), and the counters are set from the source's totals.
 */
export async function openCopyTarget(url: string, migrations: readonly Migration[]): Promise<CopyTarget> {
  const client = new pg.Client({ connectionString: url, application_name: 'promo copy', types: promoTypes });
  await client.connect();
  let committed = false;
  try {
    await client.query('BEGIN');
    await lockMigrationsInTransaction(client);
    await checkCollation(client);
    await refuseTables(client);
    await applyPending(client, migrations, "in the caller's");
    const tables = await describeTables(client);
    // The migrations seed a few rows (the webhooks' fan-out place, counters' keys); the source
    // holds its own of them, which are the ones to keep: the copy fills empty tables.
    await client.query(`TRUNCATE ${[...tables.keys()].map(quoted).join(', ')}`);
    for (const name of tables.keys()) await client.query(`ALTER TABLE ${quoted(name)} DISABLE TRIGGER USER`);
    const order = await parentsFirst(client, [...tables.keys()]);
    return {
      tables,
      order,
      insert: (table, columns, rows) => insertRows(client, table, columns, rows),
      setCounters: (table, columns, rows) => setCounters(client, table, columns, rows),
      async finish() {
        for (const table of tables.values()) {
          if (table.identity)
            await client.query(
              `SELECT setval(pg_get_serial_sequence($1, $2), m) FROM (SELECT max(${quoted(table.identity)}) AS m FROM ${quoted(table.name)}) AS t WHERE m IS NOT NULL`,
              [table.name, table.identity],
            );
          await client.query(`ALTER TABLE ${quoted(table.name)} ENABLE TRIGGER USER`);
        }
      },
      checksum: (table, columns) => checksumOf(client, tables.get(table) as TargetTable, columns),
      async commit() {
        await client.query('COMMIT');
        committed = true;
      },
      async close() {
        if (!committed) await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      },
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
    throw error;
  }
}

async function refuseTables(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ name: string; db: string }>(
    `SELECT n.nspname || '.' || c.relname AS name, current_database() AS db
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
      ORDER BY 1`,
  );
  if (rows.length === 0) return;
  const db = rows[0]?.db;
  const some = rows.slice(0, 3).map((r) => r.name);
  throw new AppError(
    'database_not_empty',
    `The PostgreSQL database ${db} is not empty: it has ${rows.length} table(s) (${some.join(', ')}${rows.length > 3 ? ', ...' : ''}). promo copy writes only into an empty database: CREATE DATABASE <name> TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
  );
}

async function describeTables(client: pg.ClientBase): Promise<Map<string, TargetTable>> {
  const { rows } = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_generated: string;
    is_identity: string;
  }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_generated, c.is_identity
       FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, TargetTable>();
  for (const row of rows) {
    let table = tables.get(row.table_name);
    if (!table) tables.set(row.table_name, (table = { name: row.table_name, columns: new Map(), slotted: false }));
    if (row.column_name === 'slot') table.slotted = true;
    else if (row.is_generated === 'NEVER') table.columns.set(row.column_name, valueClassOf(row.data_type));
    if (row.is_identity === 'YES') table.identity = row.column_name;
  }
  return tables;
}

/** The tables in an order that every foreign key allows (a parent before its children), by name among equals. */
async function parentsFirst(client: pg.ClientBase, names: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
       FROM pg_constraint WHERE contype = 'f' AND conrelid <> confrelid`,
  );
  const waiting = new Map(names.map((name) => [name, new Set<string>()]));
  for (const { child, parent } of rows) waiting.get(child)?.add(parent);
  const order: string[] = [];
  while (waiting.size > 0) {
    const ready = [...waiting].filter(([, parents]) => parents.size === 0).map(([name]) => name);
    if (ready.length === 0) throw new Error(`foreign keys in a cycle among ${[...waiting.keys()].join(', ')}`);
    for (const name of ready.sort()) {
      order.push(name);
      waiting.delete(name);
      for (const parents of waiting.values()) parents.delete(name);
    }
  }
  return order;
}

async function insertRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
): Promise<void> {
  const step = rowsPerInsert(columns.length);
  for (let start = 0; start < rows.length; start += step) {
    const chunk = rows.slice(start, start + step);
    const values = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
    await client.query(
      `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES ${values.join(', ')}`,
      chunk.flat(),
    );
  }
}

async function setCounters(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
): Promise<void> {
  const keys = columns.filter((c) => c !== 'total');
  const at = columns.indexOf('total');
  for (const row of rows) {
    const key = keys.map((k) => row[columns.indexOf(k)]);
    const where = keys.map((k, i) => `${quoted(k)} = $${i + 2}`).join(' AND ');
    const updated = await client.query(`UPDATE ${quoted(table)} SET total = $1 WHERE ${where} AND slot = 0`, [
      row[at],
      ...key,
    ]);
    // A key the schema did not seed: its 16 slots, the total in the first.
    if (updated.rowCount === 0)
      await client.query(
        `INSERT INTO ${quoted(table)} (${[...keys, 'slot', 'total'].map(quoted).join(', ')})
         SELECT ${keys.map((_, i) => `$${i + 2}`).join(', ')}, s, CASE s WHEN 0 THEN $1::bigint ELSE 0 END
           FROM generate_series(0, 15) AS s`,
        [row[at], ...key],
      );
  }
}

/** The copied table's checksum, read through a cursor (bounded memory); a counter's totals summed over its slots. */
async function checksumOf(
  client: pg.ClientBase,
  table: TargetTable,
  columns: readonly string[],
): Promise<TableChecksum> {
  const sum = new TableChecksum(columns.map((c) => table.columns.get(c) ?? 'text'));
  const keys = columns.filter((c) => c !== 'total').map(quoted);
  const select = table.slotted
    ? `SELECT ${[...keys, 'sum(total)'].join(', ')} FROM ${quoted(table.name)} GROUP BY ${keys.join(', ')}`
    : `SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table.name)}`;
  await client.query(`DECLARE promo_copy_check NO SCROLL CURSOR FOR ${select}`);
  try {
    for (;;) {
      const { rows } = await client.query<unknown[]>({ text: 'FETCH 2000 FROM promo_copy_check', rowMode: 'array' });
      for (const row of rows) sum.add(row);
      if (rows.length < 2000) return sum;
    }
  } finally {
    await client.query('CLOSE promo_copy_check');
  }
}
