import { SelectQueryNode, type CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { inBatches, padToBucket } from './batches.js';
import type { Database } from './database.js';
import { type DialectSql, dialectOf } from './dialect.js';
import { directReads } from './direct-reads.js';
import { transactionRunner } from './direct-transactions.js';
import type { Db } from './engine.js';

/**
 * Where a compiled parameter comes from: a named value of the call, an element of a named
 * list of the call (an IN list), or a constant of the query.
 */
type Slot = { param: string; index?: number } | { value: unknown };

interface Template {
  compiled: CompiledQuery;
  slots: Slot[];
  /** A SELECT: outside a transaction, it may run straight on the reader (db/direct-reads.ts). */
  select: boolean;
}

const TOKEN = '\u0000param:';

type ElementOf<T> = T extends ReadonlyArray<infer E> ? E : never;

/**
 * Names a parameter inside a template's builder: stands for the call's value of that name.
 * `param.list(name, count)` stands for the first `count` elements of a list the call gives
 * (an IN list); the count goes into the shape, since the SQL text depends on it.
 */
export type Param<P> = (<K extends keyof P & string>(name: K) => P[K]) & {
  list<K extends keyof P & string>(name: K, count: number): Array<ElementOf<P[K]>>;
};

const LIST_ELEMENT = /^(.*)\[(\d+)\]$/;

function slotOf(value: unknown): Slot {
  if (typeof value !== 'string' || !value.startsWith(TOKEN)) return { value };
  const name = value.slice(TOKEN.length);
  const element = LIST_ELEMENT.exec(name);
  return element ? { param: element[1] as string, index: Number(element[2]) } : { param: name };
}

function templateOf(compiled: CompiledQuery, names: ReadonlySet<string>): Template {
  const slots = compiled.parameters.map(slotOf);
  const bound = new Set(
    slots.flatMap((slot) =>
      'param' in slot ? [slot.index === undefined ? slot.param : `${slot.param}[${slot.index}]`] : [],
    ),
  );
  const lost = [...names].filter((name) => !bound.has(name));
  // A builder that wrote a value into the SQL text instead of binding it would run every
  // later call with the first call's value: refuse it.
  if (lost.length > 0)
    throw new Error(`query template: ${lost.join(', ')} not bound as parameters in: ${compiled.sql}`);
  return { compiled, slots, select: SelectQueryNode.is(compiled.query) };
}

/**
 * A query that Kysely builds and compiles once per shape, then runs with each call's values
 * bound: for statements run once per item of a bulk job (each order of an import), where
 * building and compiling the query anew costs more than SQLite's own work. The builder puts
 * `param('name')` wherever a value of the call goes; anything else in it is a constant of
 * the statement. `shape` tells apart queries whose text depends on the call (the columns an
 * insert sets, the length of an IN list: `listShape`); the builder gets it back. Hot reads
 * (a voucher, a customer, the key of a request) use it too: docs/performance.md "Hot paths". The compiled
 * query runs in the caller's transaction, on the connection's cached statement: straight on
 * the reader for a SELECT outside a transaction (db/direct-reads.ts), straight on the writer
 * inside a transaction that is open (db/direct-transactions.ts), else through Kysely.
 */
export function queryTemplate<P extends Record<string, unknown>, O>(
  build: (db: Db, param: Param<P>, shape: string) => Compilable<O>,
): (db: Db, params: P, shape?: string) => Promise<O[]> {
  // Compiled per engine too: a process may hold both (a copy from a file to PostgreSQL). One map
  // per engine rather than a key joining engine and shape: an import runs five templates an order,
  // and a joined key is a new string to flatten and hash on every call.
  const byEngine: Record<DialectSql['name'], Map<string, Template>> = { sqlite: new Map(), postgres: new Map() };
  return async (db, params, shape = '') => {
    const templates = byEngine[dialectOf(db).name];
    let template = templates.get(shape);
    if (!template) {
      const names = new Set<string>();
      const token = (name: string) => {
        names.add(name);
        return `${TOKEN}${name}`;
      };
      const param = Object.assign(token, {
        list: (name: string, count: number) => Array.from({ length: count }, (_, i) => token(`${name}[${i}]`)),
      }) as unknown as Param<P>;
      template = templateOf(build(db, param, shape).compile(), names);
      templates.set(shape, template);
    }
    const { compiled, slots } = template;
    const parameters: unknown[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as Slot;
      if (!('param' in slot)) parameters[i] = slot.value;
      else
        parameters[i] =
          slot.index === undefined ? params[slot.param] : (params[slot.param] as ReadonlyArray<unknown>)[slot.index];
    }
    const direct = template.select ? directReads(db) : undefined;
    if (direct) return direct.select(compiled.sql, parameters) as O[];
    const inTransaction = transactionRunner(db)?.(compiled.sql, parameters);
    if (inTransaction) return inTransaction as O[];
    return (
      await db.executeQuery<O>({ sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, parameters })
    ).rows;
  };
}

/** The shape of an insert: the columns it sets (Kysely leaves out undefined values), in order. */
export const columnsShape = (row: Record<string, unknown>): string => {
  let shape = '';
  for (const key in row) if (row[key] !== undefined) shape = shape === '' ? key : `${shape},${key}`;
  return shape;
};

/** The shape of a query with one IN list: its length. */
export const listShape = (values: ReadonlyArray<unknown>): string => String(values.length);

/**
 * A lookup by any number of keys (one IN list) as a query template: the keys go in batches
 * under SQLite's cap of bound parameters, each padded to one of a few lengths (db/batches.ts),
 * so every call runs one of a few compiled statements. `build` gets the list's placeholders.
 */
export function keysTemplate<K, O>(
  build: (db: Db, keys: K[]) => Compilable<O>,
): (db: Db, keys: readonly K[]) => Promise<O[]> {
  const run = queryTemplate<{ keys: readonly K[] }, O>((db, param, shape) =>
    build(db, param.list('keys', Number(shape))),
  );
  return (db, keys) =>
    inBatches(keys, (batch) => {
      const padded = padToBucket(batch);
      return run(db, { keys: padded }, listShape(padded));
    });
}

/** The columns any of the rows sets (a value other than undefined), in first-seen order. */
const unionColumns = (rows: ReadonlyArray<Record<string, unknown>>): string[] => {
  const columns = new Set<string>();
  for (const row of rows) for (const key in row) if (row[key] !== undefined) columns.add(key);
  return [...columns];
};

/** Each column's values, one per row (NULL where a row leaves it out): loops, since an import's every order inserts its items through it. */
function columnValues(rows: ReadonlyArray<Record<string, unknown>>, columns: string[]): Record<string, unknown[]> {
  const params: Record<string, unknown[]> = {};
  for (const column of columns) {
    const values = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = (rows[i] as Record<string, unknown>)[column] ?? null;
    params[column] = values;
  }
  return params;
}

/**
 * A multi-row INSERT as a query template: built and compiled once per column list and row
 * count, then bound per call (a redemption's parent and children, an order's items, a
 * request's events: one statement and no compile however many rows). The rows name the union
 * of their columns; a column a row leaves out is bound as NULL, since SQLite has no DEFAULT
 * inside VALUES (so a column with a default must be set in every row or in none).
 */
export function insertTemplate<T extends keyof Database & string>(
  table: T,
): (db: Db, rows: ReadonlyArray<Record<string, unknown>>) => Promise<void> {
  const run = queryTemplate<Record<string, unknown[]>, never>((db, param, shape) => {
    const [columns = '', count = '0'] = shape.split(':');
    const names = columns.split(',');
    const lists = names.map((column) => param.list(column, Number(count)));
    const values = Array.from({ length: Number(count) }, (_, i) =>
      Object.fromEntries(names.map((column, j) => [column, lists[j]![i]])),
    );
    return db.insertInto(table).values(values as never);
  });
  return async (db, rows) => {
    if (rows.length === 0) return;
    const columns = unionColumns(rows);
    await run(db, columnValues(rows, columns), `${columns.join(',')}:${rows.length}`);
  };
}
