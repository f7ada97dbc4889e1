import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, spawnServe } from '../support/cli.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const KEY = { PROMO_APP_ID: 'restore-app', PROMO_APP_TOKEN: 'restore-token' };

interface Key {
  app_id: string;
  app_token: string;
  kind: string;
  name: string;
  revoked_at: string | null;
}

const createKey = async (db: string, ...args: string[]): Promise<Key> =>
  JSON.parse((await runCli(['keys', 'create', ...args, '--json', '--db', db])).stdout) as Key;

const keysOf = async (db: string): Promise<Record<string, string | null>> =>
  Object.fromEntries(
    (JSON.parse((await runCli(['keys', 'list', '--json', '--db', db])).stdout) as Key[]).map((key) => [
      key.name,
      key.revoked_at,
    ]),
  );

/** The restore's JSON report without what varies from run to run. */
const keysReport = (stdout: string) => {
  const report = JSON.parse(stdout) as { revoked_keys: unknown; kept_keys: unknown };
  return { revoked_keys: report.revoked_keys, kept_keys: report.kept_keys };
};

describe(
  'promo restore and keys',
  sqliteOnly('restore replaces the SQLite file (refused on PostgreSQL: test/cli/postgres-commands.test.ts)'),
  () => {
    it('refuses at once while the database is open, before it reads the backup', async () => {
      const file = freshDbFile();
      const notABackup = join(tempDir(), 'notes.txt');
      writeFileSync(notABackup, 'not a database');
      const server = await spawnServe(['--db', file], KEY);
      try {
        // Checking a backup reads all of it (seconds for a large one): the refusal comes first.
        const res = await runCli(['restore', notABackup, '--db', file]);
        assert.deepEqual(res, {
          code: 1,
          stdout: '',
          stderr: `${JSON.stringify({ code: 409, key: 'database_in_use', message: 'Database in use', details: `A process has ${file} open (promo serve, a worker or a command); stop it before promo restore` })}\n`,
        });
      } finally {
        await server.stop();
      }
    });

    it('revokes again, and lists, the keys the replaced database had revoked; --keep-keys leaves them active', async () => {
      const db = freshDbFile();
      const shop = await createKey(db, '--name', 'shop');
      const leaked = await createKey(db, '--name', 'leaked');
      const web = await createKey(db, '--client', '--name', 'web');
      const backup = join(tempDir(), 'before-the-leak.db');
      assert.equal((await runCli(['backup', backup, '--db', db])).code, 0);
      assert.equal((await runCli(['keys', 'revoke', leaked.app_id, '--db', db])).code, 0);
      const revokedAt = (await keysOf(db)).leaked as string;

      const restored = await runCli(['restore', backup, '--db', db]);
      assert.equal(restored.code, 0, restored.stderr);
      const [first, ...rest] = restored.stdout.split('\n');
      assert.match(
        first as string,
        new RegExp(
          `^${db} restored from ${backup} \\(.+\\) in \\d+ ms; the database it replaced is kept as ${db}\\.replaced-.+$`,
        ),
      );
      assert.deepEqual(rest, [
        'revoked again 1 key(s) that the replaced database had revoked or did not have (--keep-keys leaves them active):',
        `  ${leaked.app_id}  server  leaked  (revoked at ${revokedAt} in the replaced database)`,
        '',
      ]);
      assert.deepEqual(await keysOf(db), { shop: null, leaked: revokedAt, web: null });

      // The leaked secret opens nothing on a server started on the restored file; the others do.
      const server = await spawnServe(['--db', db], {});
      try {
        const as = (key: Key) =>
          fetch(`${server.url}/v1/customers`, {
            headers: { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token },
          }).then((res) => res.status);
        assert.deepEqual([await as(shop), await as(leaked)], [200, 401]);
      } finally {
        await server.stop();
      }

      const kept = await runCli(['restore', backup, '--db', db, '--keep-keys', '--json']);
      const returning = {
        app_id: leaked.app_id,
        kind: 'server',
        name: 'leaked',
        in_replaced: 'revoked',
        revoked_at: revokedAt,
      };
      assert.deepEqual(keysReport(kept.stdout), { revoked_keys: [], kept_keys: [returning] });
      assert.deepEqual(await keysOf(db), { shop: null, leaked: null, web: null });
      assert.equal(web.kind, 'client');
    });

    it("revokes the keys another database's backup would bring in, unless the database it replaces never had a key", async () => {
      const source = freshDbFile();
      const theirs = await createKey(source, '--name', 'theirs');
      const backup = join(tempDir(), 'other.db');
      assert.equal((await runCli(['backup', backup, '--db', source])).code, 0);

      const ours = freshDbFile();
      await createKey(ours, '--name', 'ours');
      const res = await runCli(['restore', backup, '--db', ours, '--json']);
      const { revoked_keys } = keysReport(res.stdout) as { revoked_keys: Array<{ revoked_at: string }> };
      assert.deepEqual(revoked_keys, [
        { app_id: theirs.app_id, kind: 'server', name: 'theirs', in_replaced: 'absent', revoked_at: null },
      ]);
      const revokedAt = (await keysOf(ours)).theirs;
      assert.ok(revokedAt !== null && revokedAt !== undefined, 'revoked in the restored file');

      const empty = freshDbFile();
      assert.deepEqual(keysReport((await runCli(['restore', backup, '--db', empty, '--json'])).stdout), {
        revoked_keys: [],
        kept_keys: [],
      });
      assert.deepEqual(await keysOf(empty), { theirs: null });
    });
  },
);
