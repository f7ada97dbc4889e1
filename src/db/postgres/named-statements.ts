import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { isStalePlan } from './errors.js';

/**
 * Named (prepared) statements for Kysely on PostgreSQL. Kysely sends every statement unnamed, so
 * the server parses and plans it on every run: four tenths of PostgreSQL's CPU for a stacked
 * redemption's statements. Named, each connection parses a text once, and after five runs
 * PostgreSQL keeps a generic plan when it costs no more than the custom ones (plan_cache_mode
 * auto). The name is the text's hash: node-postgres refuses a name it prepared for another text
 * on that connection, so even a collision could never run the wrong statement.
 *
 * Which texts are named: those with parameters (they already go by the extended protocol, so a
 * multi-statement text never does), without `limit` (a list's best plan depends on its filter's
 * value: a rare status walks its own index, a common one the order's; PostgreSQL's generic plan
 * would pick one for all), with at most MAX_NAMED_PARAMETERS (a bulk insert's batch would hold
 * megabytes of the server's memory per connection for a parse its thousand rows outweigh), run
 * at least twice in this process (a text seen once, a cursor's name or an `IN` list's length, is
 * never prepared), and at most MAX_PREPARED_PER_CONNECTION texts a connection.
 */
export const MAX_PREPARED_PER_CONNECTION = 256;
export const MAX_NAMED_PARAMETERS = 256;
/**
 * Whether promo's statements go named: yes unless PROMO_DB_NAMED_STATEMENTS=off, for a pooler in
 * transaction mode that cannot follow a prepared statement from one transaction's server
 * connection to the next (pgbouncer before 1.21, or without max_prepared_statements).
 */
export const namedStatements = (): boolean => process.env.PROMO_DB_NAMED_STATEMENTS !== 'off';

/**
 * Texts whose runs the process counts (the API's whole surface is a few hundred); past it the
 * counts start over: a name depends on the text alone, so nothing prepared is lost.
 */
const MAX_COUNTED_TEXTS = 1024;

const LIST = /\slimit\s/i;

interface Counted {
  runs: number;
  /** Undefined while the text is not (or never to be) named. */
  name?: string;
}

const counted = new Map<string, Counted>();

/** The same name for the same text in every process: the first 120 bits of its SHA-1. */
export const statementName = (text: string): string =>
  `promo_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;

/** The name a text runs under once it has earned one; undefined while it runs unnamed. */
function nameFor(text: string, parameters: number): string | undefined {
  if (parameters === 0 || parameters > MAX_NAMED_PARAMETERS) return undefined;
  let entry = counted.get(text);
  if (!entry) {
    if (counted.size >= MAX_COUNTED_TEXTS) counted.clear();
    counted.set(text, (entry = { runs: 0 }));
  }
  if (++entry.runs === 2 && !LIST.test(text)) entry.name = statementName(text);
  return entry.name;
}

/** What one connection prepared: its names, and the new names of statements a DDL made stale. */
class NamingClient implements PostgresPoolClient {
  private readonly prepared = new Set<string>();
  private readonly renamed = new Map<string, string>();
  private renewals = 0;

  constructor(readonly client: pg.PoolClient) {}

  query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    text: string | PostgresCursor<R>,
    values?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // A cursor: Kysely streams through pg-cursor, which promo does not configure (db/stream.ts).
    if (typeof text !== 'string') return this.client.query(text as never);
    const base = values && nameFor(text, values.length);
    const name = base && this.usable(this.renamed.get(base) ?? base);
    const answer = name
      ? this.runNamed(base as string, name, text, values as unknown[])
      : this.client.query(text, values as unknown[]);
    return answer as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }

  /** `name` if this connection prepared it or may prepare one more. */
  private usable(name: string): string | undefined {
    if (this.prepared.has(name)) return name;
    if (this.prepared.size >= MAX_PREPARED_PER_CONNECTION) return undefined;
    this.prepared.add(name);
    return name;
  }

  /**
   * Runs the named statement. A stale plan (db/postgres/errors.ts: DDL changed a prepared
   * `SELECT *`'s columns) renames it on this connection, so it parses again; outside a
   * transaction it runs again at once, inside one the error ends the transaction, which
   * db/postgres/retries.ts runs again whole.
   */
  private async runNamed(base: string, name: string, text: string, values: unknown[]) {
    try {
      return await this.client.query({ name, text, values });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      const fresh = `${base}_${++this.renewals}`;
      this.renamed.set(base, fresh);
      if (this.client.getTransactionStatus() !== 'I' || !this.usable(fresh)) throw error;
      return this.client.query({ name: fresh, text, values });
    }
  }
}

/** `pool` for Kysely, its statements named (above); each connection keeps its own NamingClient. */
export function namingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, NamingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let naming = clients.get(client);
      if (!naming) clients.set(client, (naming = new NamingClient(client)));
      return naming;
    },
    end: () => pool.end(),
  };
}
