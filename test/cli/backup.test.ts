import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { runCli, spawnServe } from '../support/cli.js';
import { dbFingerprint, freshDbFile, tempDir } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const KEY = { PROMO_APP_ID: 'backup-app', PROMO_APP_TOKEN: 'backup-token' };
const headers = {
  'X-App-Id': KEY.PROMO_APP_ID,
  'X-App-Token': KEY.PROMO_APP_TOKEN,
  'Content-Type': 'application/json',
};

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });

const customerSourceIds = (file: string): Set<string> => {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  try {
    return new Set(
      (sqlite.prepare('SELECT source_id FROM customers').all() as Array<{ source_id: string }>).map(
        (row) => row.source_id,
      ),
    );
  } finally {
    sqlite.close();
  }
};

const fingerprintOf = (file: string): string => {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  try {
    return dbFingerprint(sqlite);
  } finally {
    sqlite.close();
  }
};

const errorOf = (stderr: string) =>
  JSON.parse(stderr.trim().split('\n').at(-1) as string) as {
    code: number;
    key: string;
    message: string;
    details: string;
  };

describe(
  'promo backup and promo restore',
  sqliteOnly('backup and restore copy the SQLite file (refused on PostgreSQL: test/cli/postgres-commands.test.ts)'),
  () => {
    it('copies a database that a generation and a stream of writes keep changing, and the restored copy holds every write answered before the backup began', async () => {
      const file = freshDbFile();
      const backup = join(tempDir(), 'promo.backup.db');
      const server = await spawnServe(['--db', file, '--workers', '1'], KEY);
      let answeredBeforeBackup: string[] = [];
      let answeredAfterBackup = 0;
      try {
        const campaign = await post(`${server.url}/v1/campaigns`, {
          name: 'Busy',
          campaign_type: 'DISCOUNT_COUPONS',
          voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
        });
        assert.equal(campaign.status, 200);
        const generation = await post(`${server.url}/v1/campaigns/Busy/vouchers?vouchers_count=100000`, {});
        assert.equal(generation.status, 202);
        const answered: string[] = [];
        let writing = true;
        let backupStarted = false;
        const writer = (async () => {
          for (let i = 0; writing; i++) {
            const res = await post(`${server.url}/v1/customers`, { source_id: `during-${i}` });
            assert.equal(res.status, 200);
            await res.arrayBuffer();
            if (backupStarted) answeredAfterBackup++;
            else answered.push(`during-${i}`);
          }
        })();
        while (answered.length < 50) await new Promise((resolve) => setTimeout(resolve, 10));
        backupStarted = true;
        answeredBeforeBackup = [...answered];
        const res = await runCli(['backup', backup, '--db', file, '--json']);
        // Keep writing a while after the copy, so the server's writes interleave with it throughout.
        while (answeredAfterBackup < 20) await new Promise((resolve) => setTimeout(resolve, 10));
        writing = false;
        await writer;
        assert.equal(res.code, 0, res.stderr);
        const report = JSON.parse(res.stdout) as Record<string, unknown>;
        assert.deepEqual(Object.keys(report).sort(), ['bytes', 'file', 'integrity', 'ms', 'pages', 'version']);
        assert.equal(report.file, backup);
        assert.equal(report.integrity, 'ok');
        assert.ok((report.bytes as number) > 0 && (report.pages as number) > 0, JSON.stringify(report));
        assert.equal(existsSync(`${backup}.partial`), false);

        // The server still runs: restoring over its database is refused, and nothing changes.
        const { async_action_id: jobId } = (await generation.json()) as { async_action_id: string };
        for (let status = ''; status !== 'DONE'; await new Promise((resolve) => setTimeout(resolve, 100))) {
          status = (
            (await (await fetch(`${server.url}/v1/async-actions/${jobId}`, { headers })).json()) as { status: string }
          ).status;
        }
        const before = fingerprintOf(file);
        const refused = await runCli(['restore', backup, '--db', file]);
        assert.equal(refused.code, 1);
        assert.deepEqual(errorOf(refused.stderr), {
          code: 409,
          key: 'database_in_use',
          message: 'Database in use',
          details: `A process has ${file} open (promo serve, a worker or a command); stop it before promo restore`,
        });
        assert.equal(fingerprintOf(file), before);
      } finally {
        await server.stop();
      }

      const restored = await runCli(['restore', backup, '--db', file, '--json']);
      assert.equal(restored.code, 0, restored.stderr);
      const report = JSON.parse(restored.stdout) as { file: string; from: string; replaced: string; version: number };
      assert.equal(report.file, file);
      assert.equal(report.from, backup);
      assert.match(report.replaced, /\.replaced-\d{4}-\d\d-\d\dT/);
      const kept = customerSourceIds(report.replaced);
      const inRestored = customerSourceIds(file);
      for (const id of answeredBeforeBackup)
        assert.ok(inRestored.has(id), `${id} was answered before the backup began`);
      // The replaced database keeps every write, those after the backup too.
      assert.ok(kept.size >= answeredBeforeBackup.length + 20, `${kept.size} kept`);
      assert.ok(inRestored.size < kept.size);
      // One snapshot: the generation's portions are in it whole, with the campaign's count of them.
      const copy = new BetterSqlite3(file, { readonly: true });
      const counts = copy
        .prepare(
          "SELECT c.vouchers_count AS counted, (SELECT count(*) FROM vouchers v WHERE v.campaign_id = c.id) AS stored FROM campaigns c WHERE c.name = 'Busy'",
        )
        .get() as { counted: number; stored: number };
      copy.close();
      assert.equal(counts.stored, counts.counted);

      // The restored file serves again.
      const again = await spawnServe(['--db', file], KEY);
      try {
        const res = await fetch(`${again.url}/v1/customers/during-0`, { headers });
        assert.equal(res.status, 200);
      } finally {
        await again.stop();
      }
    });

    it('never overwrites a file with a backup', async () => {
      const file = freshDbFile();
      const target = join(tempDir(), 'taken.db');
      writeFileSync(target, 'mine');
      const res = await runCli(['backup', target, '--db', file]);
      assert.equal(res.code, 1);
      assert.deepEqual(errorOf(res.stderr), {
        code: 409,
        key: 'file_exists',
        message: 'File exists',
        details: `${target} already exists; choose a new name for the backup`,
      });
    });

    it('restores only a whole promo database', async () => {
      const dir = tempDir();
      const file = freshDbFile();
      const before = fingerprintOf(file);
      const notSqlite = join(dir, 'notes.txt');
      writeFileSync(notSqlite, 'not a database');
      const res = await runCli(['restore', notSqlite, '--db', file]);
      assert.equal(res.code, 1);
      const body = errorOf(res.stderr);
      assert.equal(body.key, 'invalid_backup');
      assert.match(body.details, /is not a SQLite database/);

      const foreign = join(dir, 'foreign.db');
      const sqlite = new BetterSqlite3(foreign);
      sqlite.exec('CREATE TABLE t (x)');
      sqlite.close();
      const res2 = await runCli(['restore', foreign, '--db', file]);
      assert.deepEqual(errorOf(res2.stderr), {
        code: 400,
        key: 'invalid_backup',
        message: 'Invalid backup',
        details: `${foreign} is not a promo database (it has no schema_migrations)`,
      });

      const missing = join(dir, 'missing.db');
      const res3 = await runCli(['restore', missing, '--db', file]);
      assert.deepEqual(errorOf(res3.stderr), {
        code: 400,
        key: 'invalid_backup',
        message: 'Invalid backup',
        details: `${missing} does not exist`,
      });
      assert.equal(fingerprintOf(file), before);
    });
  },
);
