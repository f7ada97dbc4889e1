import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/db.js';
import { postgresForTests, type TestPostgres } from '../support/postgres.js';

const found = await postgresForTests();
const BASELINE = 31;

const errorOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1) as string) as Record<string, unknown>;

/** The commands on a postgres:// --db: migrate works; those that copy or rewrite a file refuse, saying what to use. */
describe('promo commands on a PostgreSQL database', { skip: found.skip }, () => {
  const postgres = (found as { server?: TestPostgres }).server as TestPostgres;
  after(() => postgres?.close());

  it('promo migrate applies the baseline and every later version, then finds nothing to do', async () => {
    const url = await postgres.emptyDatabase();
    const later = loadMigrations().filter((m) => m.version > BASELINE);
    const first = await runCli(['migrate', '--db', url, '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), {
      applied: ['0031_baseline', ...later.map((m) => m.name)],
      version: later.at(-1)?.version ?? BASELINE,
    });
    const again = await runCli(['migrate', '--db', url, '--json']);
    assert.deepEqual(JSON.parse(again.stdout), { applied: [], version: later.at(-1)?.version ?? BASELINE });
  });

  it('promo backup, restore, vacuum and vacuum --full refuse, pointing to the PostgreSQL tools', async () => {
    const url = await postgres.migratedDatabase();
    const target = join(tempDir(), 'copy.db');
    const refusals = [
      [
        ['backup', target, '--db', url],
        'promo backup works on a SQLite database file; on PostgreSQL use pg_dump / pg_restore, or pgBackRest for continuous backups',
      ],
      [
        ['restore', target, '--db', url],
        'promo restore works on a SQLite database file; on PostgreSQL use pg_dump / pg_restore, or pgBackRest for continuous backups',
      ],
      [
        ['vacuum', '--full', '--db', url],
        'promo vacuum --full works on a SQLite database file; on PostgreSQL autovacuum keeps the tables; run VACUUM (ANALYZE), or VACUUM FULL in a maintenance window',
      ],
      [
        ['vacuum', '--db', url],
        'promo vacuum works on a SQLite database file; on PostgreSQL autovacuum keeps the tables; run VACUUM (ANALYZE), or VACUUM FULL in a maintenance window',
      ],
    ] as const;
    for (const [args, details] of refusals) {
      const res = await runCli([...args]);
      assert.equal(res.code, 1, `${args[0]}: ${res.stderr}`);
      assert.deepEqual(errorOf(res.stderr), {
        code: 400,
        key: 'file_database_only',
        message: 'Only for a database file',
        details,
      });
    }
  });
});
