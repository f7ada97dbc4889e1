import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { sql } from 'kysely';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import type { TestPostgres } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

export const PAIR_ENV = { PROMO_APP_ID: 'pg-race-app', PROMO_APP_TOKEN: 'pg-race-token', PROMO_DB_POOL: '8' };

export interface PostgresPair {
  /** This process's test server on the same database: it sets up and reads back. */
  setup: TestServer;
  /** The two spawned `promo serve` processes the races go to. */
  servers: SpawnedServer[];
}

/**
 * The PostgreSQL race tests' setup: a migrated database on `postgres`, this process's test
 * server on it, and two `promo serve` on it (one after the other: the first registers
 * PAIR_ENV's key, the second finds it). Registers the suite's hooks; the pair is filled in
 * once `before` has run.
 */
export function postgresPair(postgres: () => TestPostgres | undefined): PostgresPair {
  const pair = { servers: [] } as unknown as PostgresPair;
  before(async () => {
    pair.setup = await startTestServer({ dbFile: await (postgres() as TestPostgres).migratedDatabase() });
    pair.servers.push(await spawnServe(['--db', pair.setup.dbFile], PAIR_ENV));
    pair.servers.push(await spawnServe(['--db', pair.setup.dbFile], PAIR_ENV));
  });
  after(async () => {
    for (const server of pair.servers) await server.stop('SIGTERM');
    await pair.setup?.close();
    await postgres()?.close();
  });
  return pair;
}

/** Request `i` of a race, to the servers in turn, as `status key` (`200 ok` when it passed). */
export const via = (pair: PostgresPair, i: number, method: string, path: string, body?: unknown): Promise<string> =>
  (pair.servers[i % 2] as SpawnedServer)
    .request<{ key?: string }>(method, path, body)
    .then((r) => `${r.status} ${r.status === 200 ? 'ok' : r.body.key}`);

/** How many of each answer. */
export const tally = (results: string[]): Record<string, number> =>
  results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r]: (acc[r] ?? 0) + 1 }), {});

/** The rows a statement reads through the setup server's connection. */
export const rowsOf = async <T>(pair: PostgresPair, query: ReturnType<typeof sql<T>>): Promise<T[]> =>
  (await query.execute(pair.setup.deps.db)).rows;

/** A request through the setup server that must pass (a test's setting up); its body. */
export async function setupCall(pair: PostgresPair, method: string, path: string, body?: unknown) {
  const res = await pair.setup.request(method, path, { body });
  assert.ok(res.status < 300, `${path}: ${res.text}`);
  return res.body;
}
