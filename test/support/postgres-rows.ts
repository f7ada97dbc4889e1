import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/**
 * Synchronous SQL on a PostgreSQL test database, for the tests that look at rows directly
 * (`sqliteOf(deps).prepare(sql).get(...)`: counts, seeds, fingerprints) on the PostgreSQL pass.
 * A worker thread holds one pg connection of its own; the test's thread posts a statement and
 * sleeps on Atomics.wait until the worker answers. The app under test uses its own pool, so a
 * statement here sees what the app committed. lock_timeout bounds a wait on a lock the app
 * holds while this thread sleeps (it could never release it).
 *
 * It runs the test's SQL as written, with `?` placeholders numbered: SQL both engines accept
 * works, SQLite's own (PRAGMA, sqlite_master, json_extract, INSERT OR IGNORE) fails loudly.
 */
const WORKER = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pg);
const { port, signal, url } = workerData;
const number = (text) => (text === null ? null : Number(text));
const types = { getTypeParser: (oid, format) => (oid === 20 || oid === 1700 ? number : pg.types.getTypeParser(oid, format)) };
const client = new pg.Client({ connectionString: url, types, application_name: 'promo-test-rows' });
// The database is dropped WITH (FORCE) when the test process ends: a lost connection is no error then.
client.on('error', () => undefined);
const ready = client.connect().then(() => client.query("SET lock_timeout = '5s'"));
port.on('message', async ({ text, values }) => {
  let reply;
  try {
    await ready;
    const result = await client.query(text, values);
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    reply = { rows: last.rows, rowCount: last.rowCount ?? 0, fields: (last.fields ?? []).map((f) => f.name) };
  } catch (error) {
    reply = { error: { message: error.message, code: error.code } };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

interface Reply {
  rows: Record<string, unknown>[];
  rowCount: number;
  fields: string[];
  error?: { message: string; code?: string };
}

export interface PostgresRows {
  /** Runs one statement (or, without values, several) and answers its rows. */
  query(text: string, values?: readonly unknown[]): Reply;
}

/** `?` placeholders (outside quotes) as PostgreSQL's `$1`, `$2`, …; a named-parameter object as well, `@name`/`:name`. */
export function numberedPlaceholders(text: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  const named = params.length === 1 && isPlainObject(params[0]) ? (params[0] as Record<string, unknown>) : undefined;
  const values: unknown[] = [];
  let positional = 0;
  const out = text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|[@:]([A-Za-z_]\w*)/g, (token, name?: string) => {
    if (token === '?') {
      values.push(bindable(params[positional++]));
      return `$${values.length}`;
    }
    if (name !== undefined && named && name in named) {
      values.push(bindable(named[name]));
      return `$${values.length}`;
    }
    return token;
  });
  return { text: out, values };
}

const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

// better-sqlite3 binds booleans as 1/0 and bigints as integers: the same here.
const bindable = (value: unknown): unknown =>
  typeof value === 'boolean' ? Number(value) : typeof value === 'bigint' ? value.toString() : value;

const bridges = new Map<string, PostgresRows>();

/** The bridge to the database at `url`: one worker and connection per database, for the life of the process. */
export function postgresRows(url: string): PostgresRows {
  const known = bridges.get(url);
  if (known) return known;
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const pg = createRequire(import.meta.url).resolve('pg');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { port: port2, signal, url, pg },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  const bridge: PostgresRows = {
    query(text, values = []) {
      Atomics.store(signal, 0, 0);
      port1.postMessage({ text, values: values.length ? values : undefined });
      // A wake-up alone does not mean this statement's answer: the previous answer's notify may
      // land now, when its waiter had already seen the signal set and gone on. Only the signal
      // set again (after the answer was posted) does.
      const deadline = Date.now() + 60_000;
      while (Atomics.load(signal, 0) === 0) {
        if (Atomics.wait(signal, 0, 0, Math.max(0, deadline - Date.now())) === 'timed-out')
          throw new Error(`no answer from PostgreSQL in 60 s: ${text}`);
      }
      const reply = receiveMessageOnPort(port1)?.message as Reply;
      if (reply.error) {
        throw Object.assign(new Error(`${reply.error.message} (on PostgreSQL: ${text})`), { code: reply.error.code });
      }
      return reply;
    },
  };
  bridges.set(url, bridge);
  return bridge;
}
