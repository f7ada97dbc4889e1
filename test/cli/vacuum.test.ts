import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { runCli, spawnServe } from '../support/cli.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const KEY = { PROMO_APP_ID: 'vacuum-app', PROMO_APP_TOKEN: 'vacuum-token' };
const headers = {
  'X-App-Id': KEY.PROMO_APP_ID,
  'X-App-Token': KEY.PROMO_APP_TOKEN,
  'Content-Type': 'application/json',
};

/** Fills the file with customers of large metadata, then deletes them: their pages become free. */
function leaveFreePages(file: string, rows: number): void {
  const sqlite = openSqlite(file);
  const insert = sqlite.prepare(
    "INSERT INTO customers (id, source_id, metadata, created_at, updated_at) VALUES (?, ?, ?, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')",
  );
  sqlite.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`cust_fill${i}`, `fill-${i}`, JSON.stringify({ pad: 'x'.repeat(4000) }));
  })();
  sqlite.prepare("DELETE FROM customers WHERE id LIKE 'cust_fill%'").run();
  sqlite.close();
}

const space = (file: string) => {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  const figures = {
    pages: sqlite.pragma('page_count', { simple: true }) as number,
    free: sqlite.pragma('freelist_count', { simple: true }) as number,
  };
  sqlite.close();
  return figures;
};

describe(
  'promo vacuum',
  sqliteOnly('free pages of the SQLite file (refused on PostgreSQL: test/cli/postgres-commands.test.ts)'),
  () => {
    it('gives free pages back while a server on the same file keeps answering writes', async () => {
      const file = freshDbFile();
      const server = await spawnServe(['--db', file], KEY);
      try {
        leaveFreePages(file, 5000);
        const before = space(file);
        assert.ok(before.free > 4000, `free pages before: ${before.free}`);
        let writing = true;
        const statuses: number[] = [];
        const writer = (async () => {
          for (let i = 0; writing; i++) {
            const res = await fetch(`${server.url}/v1/customers`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ source_id: `during-${i}` }),
            });
            statuses.push(res.status);
          }
        })();
        const res = await runCli(['vacuum', '--db', file, '--json']);
        writing = false;
        await writer;
        assert.equal(res.code, 0, res.stderr);
        const report = JSON.parse(res.stdout) as {
          bytes_before: number;
          bytes_after: number;
          pages_released: number;
          ms: number;
        };
        const after = space(file);
        assert.equal(after.free, 0);
        assert.ok(report.pages_released > 4000 && report.bytes_after < report.bytes_before, JSON.stringify(report));
        assert.ok(after.pages < before.pages - 4000, `${before.pages} -> ${after.pages}`);
        assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), JSON.stringify(statuses));
      } finally {
        await server.stop();
      }
    });

    it('asks once for --full on a database made before online vacuum, then works online', async () => {
      const file = join(tempDir(), 'legacy.db');
      const legacy = new BetterSqlite3(file);
      legacy.exec('CREATE TABLE legacy_filler (x TEXT)'); // auto_vacuum stays NONE once a table exists
      legacy.close();
      const refused = await runCli(['vacuum', '--db', file]);
      assert.equal(refused.code, 1);
      assert.deepEqual(JSON.parse(refused.stderr), {
        code: 400,
        key: 'vacuum_needs_full',
        message: 'Full vacuum needed',
        details:
          'This database was created before online vacuum existed: stop the server and run promo vacuum --full once',
      });
      const full = await runCli(['vacuum', '--full', '--db', file]);
      assert.equal(full.code, 0, full.stderr);
      assert.match(full.stdout, /^[\d.]+ MB -> [\d.]+ MB \(\d+ pages released\) in \d+ ms\n$/);
      assert.equal((await runCli(['vacuum', '--db', file])).code, 0);
    });
  },
);

describe('the WAL after a bulk job', sqliteOnly("SQLite's write-ahead log file"), () => {
  it('is copied back and restarts at zero bytes once the job ends', async () => {
    const { statSync } = await import('node:fs');
    const file = freshDbFile();
    const server = await spawnServe(['--db', file], KEY);
    try {
      const campaign = await fetch(`${server.url}/v1/campaigns`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'Wal',
          campaign_type: 'DISCOUNT_COUPONS',
          voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
        }),
      });
      assert.equal(campaign.status, 200);
      const started = await fetch(`${server.url}/v1/campaigns/Wal/vouchers?vouchers_count=50000`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      const { async_action_id: id } = (await started.json()) as { async_action_id: string };
      for (let i = 0; i < 600; i++) {
        const job = (await (await fetch(`${server.url}/v1/async-actions/${id}`, { headers })).json()) as {
          status: string;
        };
        if (job.status === 'DONE') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The worker truncates right after the last portion commits, so give it a moment.
      let size = statSync(`${file}-wal`).size;
      for (let i = 0; i < 50 && size > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        size = statSync(`${file}-wal`).size;
      }
      assert.equal(size, 0);
    } finally {
      await server.stop();
    }
  });
});
