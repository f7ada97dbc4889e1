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
    pair.other = await spawnServe(['--db', pair.server.dbFile, ...args], env);
  });
  after(async () => {
    await pair.other.stop('SIGTERM');
    await pair.server.close();
  });
  return pair;
}
