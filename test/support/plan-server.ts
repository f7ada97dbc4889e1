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
  /** The statements one GET of `path` runs (it must answer 2xx and run more than its key's look-up). */
  statementsOf(path: string): Promise<CompiledQuery[]>;
  close(): Promise<void>;
}

/** `recording(sink)`: a Kysely over `real`'s own connection that hands `sink` every statement it runs. */
export async function planServer(
  real: Deps,
  recording: (sink: (query: CompiledQuery) => void) => Kysely<Database>,
): Promise<PlanServer> {
  let captured: CompiledQuery[] | undefined;
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
        assert.ok(captured.length > 1, `${path} ran no list statement`);
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
