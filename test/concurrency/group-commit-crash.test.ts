import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const ENV = { PROMO_APP_ID: 'gc-app', PROMO_APP_TOKEN: 'gc-token' };
const CLIENTS = 16;

/** One client: creates customers one after another until the server dies; returns those answered 2xx. */
async function createUntilKilled(server: SpawnedServer, client: number, answered: string[]): Promise<string[]> {
  for (let n = 0; ; n++) {
    const sourceId = `gc-${client}-${n}`;
    try {
      const { status } = await server.request('POST', '/v1/customers', { source_id: sourceId, name: `Customer ${n}` });
      assert.equal(status, 200);
      answered.push(sourceId);
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      return answered; // the connection died with the server
    }
  }
}

function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe('group commit survives SIGKILL', sqliteOnly("SQLite's group commit"), () => {
  it('loses no answered write and leaves no unanswered write half-applied', async () => {
    const file = freshDbFile();
    const server = await spawnServe(['--db', file], ENV);
    const answered: string[] = [];
    const clients = Array.from({ length: CLIENTS }, (_, client) => createUntilKilled(server, client, answered));
    // Kill it in full flow: once 300 creations were answered (a loaded machine takes longer).
    for (let waited = 0; answered.length < 300 && waited < 30_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.equal(await server.stop('SIGKILL'), null);
    await Promise.all(clients);

    // Concurrent writes shared commits: more transactions than COMMITs.
    const batches = metric(metrics, 'promo_commit_batches_total');
    const transactions = metric(metrics, 'promo_commit_transactions_total');
    assert.ok(answered.length > 100, `only ${answered.length} customers answered before the kill`);
    assert.ok(transactions > batches * 1.5, `${transactions} transactions in ${batches} commits`);

    const sqlite = openSqlite(file);
    try {
      const stored = new Set(
        (sqlite.prepare('SELECT source_id FROM customers').all() as { source_id: string }[]).map((r) => r.source_id),
      );
      assert.deepEqual(
        answered.filter((id) => !stored.has(id)),
        [],
        'every answered customer is in the database',
      );
      // A customer and its customer.created event are one transaction: both there, or neither.
      const unmatched = sqlite
        .prepare(
          `SELECT count(*) AS n FROM customers c WHERE NOT EXISTS (SELECT 1 FROM customer_events e WHERE e.customer_id = c.id AND e.type = 'customer.created')`,
        )
        .get() as { n: number };
      assert.equal(unmatched.n, 0);
      const orphans = sqlite
        .prepare(
          `SELECT count(*) AS n FROM customer_events e WHERE e.type = 'customer.created' AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = e.customer_id)`,
        )
        .get() as { n: number };
      assert.equal(orphans.n, 0);
      assert.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      sqlite.close();
    }
  });
});
