import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { testRunner } from '../support/jobs.js';
import { alternately, twoProcesses } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'exports-race-app', PROMO_APP_TOKEN: 'exports-race-token' };
const CUSTOMERS = 6000;

/**
 * Exports claimed by job runners in two processes on one file (this one's runner and a spawned
 * `promo serve` with two worker threads), requested through both at once: each export's
 * portions run once, in order, so its file holds every row exactly once; an export deleted
 * while the runners race for it ends with no row and no file.
 */
describe('exports across two processes', () => {
  const pair = twoProcesses(ENV, ['--workers', '2']);

  it('writes every row exactly once into each file, whichever runner takes each portion', async () => {
    const { server, other } = pair;
    const insert = sqliteOf(server.deps).prepare(
      "INSERT INTO customers (id, source_id, metadata, created_at, updated_at) VALUES (?, ?, '{}', ?, ?)",
    );
    sqliteOf(server.deps).transaction(() => {
      for (let i = 0; i < CUSTOMERS; i++)
        insert.run(
          `cust_exportrace${String(i).padStart(5, '0')}`,
          `export-racer-${i}`,
          '2024-01-01T00:00:00.000Z',
          '2024-01-01T00:00:00.000Z',
        );
    })();
    const body = (i: number) => ({
      exported_object: 'customer',
      parameters: { fields: ['id', 'source_id'], order: i % 2 === 0 ? 'created_at' : '-created_at' },
    });
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => alternately(pair, i, 'POST', '/v1/exports', body(i))),
    );
    assert.ok(
      created.every((c) => c.status === 200),
      JSON.stringify(created.find((c) => c.status !== 200)),
    );
    // Two deleted while the runners race: one as they start, one once its file is being written.
    const doomed = created.slice(4).map((c) => c.body.id as string);
    const runner = testRunner(server.deps, { workers: 1 });
    try {
      const started = sqliteOf(server.deps).prepare('SELECT bytes > 0 AS writing FROM exports WHERE id = ?');
      const deletes = await Promise.all([
        server.request('DELETE', `/v1/exports/${doomed[0]}`).then((r) => r.status),
        (async () => {
          for (let waited = 0; !(started.get(doomed[1]) as { writing: number }).writing && waited < 10_000; waited += 5)
            await new Promise((r) => setTimeout(r, 5));
          return (await other.request('DELETE', `/v1/exports/${doomed[1]}`)).status;
        })(),
      ]);
      assert.deepEqual(deletes, [204, 204]);
      const ids = created.map((c) => c.body.id as string);
      for (let waited = 0; waited < 60_000; waited += 50) {
        const open = sqliteOf(server.deps)
          .prepare(
            `SELECT count(*) AS n FROM async_actions WHERE status IN ('ENQUEUED', 'IN_PROGRESS') AND type = 'EXPORT'`,
          )
          .get() as { n: number };
        if (open.n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const id of ids.slice(0, 4)) {
        const res = await server.request('GET', `/v1/exports/${id}`);
        assert.equal(res.body.status, 'DONE', JSON.stringify(res.body));
        const lines = (await server.request('GET', `/v1/exports/${id}/download`)).text.trimEnd().split('\r\n');
        assert.equal(lines[0], 'id,source_id');
        const rows = lines.slice(1).filter((line) => line.includes('export-racer-'));
        assert.equal(rows.length, CUSTOMERS, id);
        assert.equal(new Set(rows).size, CUSTOMERS, `${id}: no row twice`);
      }
      for (const id of doomed) {
        assert.equal((await server.request('GET', `/v1/exports/${id}`)).status, 404);
        assert.equal(existsSync(`${server.deps.exportsDir}/${id}.csv`), false, `${id}: no file left`);
      }
      assert.deepEqual(
        readdirSync(server.deps.exportsDir).sort(),
        ids
          .slice(0, 4)
          .map((id) => `${id}.csv`)
          .sort(),
      );
    } finally {
      await runner.stop();
    }
  });
});
