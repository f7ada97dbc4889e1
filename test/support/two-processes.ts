import { after, before } from 'node:test';
import { spawnServe, type SpawnedServer } from './cli.js';
import { startTestServer, type TestServer } from './server.js';

export interface TwoProcesses {
  /** This process's test server. */
  server: TestServer;
  /** A spawned `promo serve` on the same database file, registering `env`'s key. */
  other: SpawnedServer;
}

/**
 * The race tests' setup: registers the suite's before and after hooks, and returns the pair,
 * filled in once `before` has run.
 */
export function twoProcesses(env: Record<string, string>, args: string[] = []): TwoProcesses {
  const pair = {} as TwoProcesses;
  before(async () => {
    pair.server = await startTestServer();
    // One exports folder for both, as servers sharing a database must have (PROMO_EXPORTS_DIR).
    const exportsDir = { PROMO_EXPORTS_DIR: pair.server.deps.exportsDir };
    pair.other = await spawnServe(['--db', pair.server.dbFile, ...args], { ...exportsDir, ...env });
  });
  after(async () => {
    await pair.other.stop('SIGTERM');
    await pair.server.close();
  });
  return pair;
}

/** An answer from either process. */
// biome-ignore lint/suspicious/noExplicitAny: a test's answer body defaults to any on purpose (see TestResponse in test/support/server.ts); a request that names its type gets it
export interface Answer<T = any> {
  status: number;
  body: T;
}

/** Request `i` of a race: even ones go to this process's server, odd ones to the other process. */
export const alternately = (
  pair: TwoProcesses,
  i: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> =>
  i % 2 === 0
    ? pair.server.request(method, path, { body }).then((r) => ({ status: r.status, body: r.body }))
    : pair.other.request(method, path, body);
