import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Deps } from '../../src/app/deps.js';
import type { Database } from '../../src/db/database.js';
import { createApp } from '../../src/http/app.js';
import { createKey } from '../../src/modules/auth/keys.service.js';
import { Fixture } from './list-variants.js';

/**
 * The real app over a database handle that records every statement it runs, as compiled, with
 * the list fixture made through it: what the query-plan tests (SQLite's and PostgreSQL's) ask
 * for the statements one GET runs.
 */
export interface PlanServer {
  deps: Deps;
  fixture: Fixture;
  /** The statements one GET of `path` runs (it must answer 2xx and run its list's statements). */
  statementsOf(path: string): Promise<Statement[]>;
  close(): Promise<void>;
}

/** A statement as run: its text and its bound values. */
export type Statement = Pick<CompiledQuery, 'sql' | 'parameters'>;

/**
 * `recording(sink)`: the database handle the app is to use, over `real`'s own connection, such
 * that `sink` is handed every statement it runs (a recording Kysely, or `real.db` itself when the
 * recording is done at the driver). A GET runs at least `minimum` statements: with its key's
 * look-up (2), or 1 where the engine keeps the key in its cache.
 */
export async function planServer(
  real: Deps,
  recording: (sink: (query: Statement) => void) => Kysely<Database>,
  minimum = 2,
): Promise<PlanServer> {
  let captured: Statement[] | undefined;
  const deps: Deps = { ...real, db: recording((query) => captured?.push(query)) };
  const key = await createKey(deps, { kind: 'server', name: 'plans' });
  const headers = { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token };
  const server: Server = await new Promise((resolve) => {
    const s = createApp(deps).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  return {
    deps,
    fixture: await Fixture.create(call),
    async statementsOf(path) {
      captured = [];
      try {
        await call('GET', path);
        assert.ok(captured.length >= minimum, `${path} ran no list statement`);
        return captured;
      } finally {
        captured = undefined;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await real.close();
    },
  };
}
