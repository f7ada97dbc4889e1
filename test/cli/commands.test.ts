import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { loadMigrations } from '../../src/db/sqlite/migrate.js';
import { runCli, spawnServe } from '../support/cli.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { freshDatabase, sqliteOnly } from '../support/engine.js';

const latest = loadMigrations().at(-1)!;

describe('promo commands', () => {
  it(
    'migrate applies every migration once, then reports up to date',
    sqliteOnly('the SQLite migrations on a new file (PostgreSQL: the baseline, test/db/postgres-schema.test.ts)'),
    async () => {
      const db = join(tempDir(), 'm.db');
      const first = await runCli(['migrate', '--db', db, '--json']);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(JSON.parse(first.stdout), {
        applied: loadMigrations().map((m) => m.name),
        version: latest.version,
      });
      const second = await runCli(['migrate', '--db', db]);
      assert.equal(second.code, 0);
      assert.equal(second.stdout, `${db} is up to date (version ${latest.version})\n`);
    },
  );

  it(
    'refuses a database written by a newer promo, with exit 1 and a clear message',
    sqliteOnly(
      'writes the version into the file with better-sqlite3 (the PostgreSQL migrator refusing a newer schema: test/db/postgres-engine.test.ts)',
    ),
    async () => {
      const db = freshDbFile();
      const sqlite = new BetterSqlite3(db);
      sqlite
        .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
        .run(9999, '9999_future', 'x');
      sqlite.close();
      for (const args of [['migrate'], ['keys', 'list'], ['serve', '--port', '0']]) {
        const res = await runCli([...args, '--db', db]);
        assert.equal(res.code, 1, args.join(' '));
        assert.deepEqual(JSON.parse(res.stderr), {
          code: 500,
          key: 'schema_too_new',
          message: 'Database is newer than this binary',
          details: `The database is at schema version 9999, but this promo knows only up to ${latest.version}. Upgrade promo to open it.`,
        });
      }
    },
  );

  it('keys create, list and revoke, with --json', async () => {
    const env = { PROMO_DB: await freshDatabase() };
    const created = await runCli(['keys', 'create', '--name', 'shop', '--json'], { env });
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(key).sort(), [
      'app_id',
      'app_token',
      'created_at',
      'kind',
      'name',
      'origins',
      'rate_limit',
      'revoked_at',
    ]);
    assert.deepEqual(
      { ...key, app_id: 'x', app_token: 'y', created_at: 'z' },
      {
        app_id: 'x',
        app_token: 'y',
        created_at: 'z',
        kind: 'server',
        name: 'shop',
        origins: ['*'],
        revoked_at: null,
        rate_limit: null,
      },
    );

    const client = JSON.parse(
      (
        await runCli(['keys', 'create', '--client', '--origins', 'https://a.example,https://b.example', '--json'], {
          env,
        })
      ).stdout,
    );
    assert.equal(client.kind, 'client');
    assert.deepEqual(client.origins, ['https://a.example', 'https://b.example']);

    const table = (await runCli(['keys', 'list'], { env })).stdout.split('\n');
    assert.match(table[0] as string, /^APP ID +KIND +STATE +ORIGINS +PER MINUTE +CREATED +NAME$/);
    assert.deepEqual(
      table
        .slice(1, 3)
        .map((line) => line.split(/ {2,}/))
        .sort(),
      [
        [key.app_id, 'server', 'active', '*', 'default', key.created_at, 'shop'],
        [
          client.app_id,
          'client',
          'active',
          'https://a.example,https://b.example',
          'default',
          client.created_at,
          'client key',
        ],
      ].sort(),
    );
    const list = JSON.parse((await runCli(['keys', 'list', '--json'], { env })).stdout);
    assert.deepEqual(list.map((k: { app_id: string }) => k.app_id).sort(), [key.app_id, client.app_id].sort());
    assert.ok(
      list.every((k: Record<string, unknown>) => !('app_token' in k)),
      'list never shows secrets',
    );

    const revoked = await runCli(['keys', 'revoke', key.app_id, '--json'], { env });
    assert.equal(revoked.code, 0);
    assert.equal(JSON.parse(revoked.stdout).revoked_at !== null, true);

    const again = await runCli(['keys', 'revoke', key.app_id], { env });
    assert.equal(again.code, 1);
    assert.equal(JSON.parse(again.stderr).key, 'already_revoked');

    const unknown = await runCli(['keys', 'revoke', 'nope'], { env });
    assert.equal(unknown.code, 1);
    assert.deepEqual(JSON.parse(unknown.stderr), {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find api_key with id nope',
      resource_id: 'nope',
      resource_type: 'api_key',
    });
  });

  it('keys create prints the headers to use without --json', async () => {
    const res = await runCli(['keys', 'create'], { env: { PROMO_DB: await freshDatabase() } });
    assert.match(res.stdout, /^X-App-Id: [0-9a-f-]{36}\nX-App-Token: [0-9a-f]{64}\n$/);
  });

  it('token issues an OAuth token that the server accepts', async () => {
    const env = { PROMO_DB: await freshDatabase() };
    const noKey = await runCli(['token'], { env });
    assert.equal(noKey.code, 1);
    assert.equal(JSON.parse(noKey.stderr).key, 'invalid_app_id');

    const key = JSON.parse((await runCli(['keys', 'create', '--json'], { env })).stdout);
    const res = await runCli(['token', '--scope', 'customers products', '--json'], { env });
    assert.equal(res.code, 0, res.stderr);
    const token = JSON.parse(res.stdout);
    assert.equal(token.client_id, key.app_id);
    assert.equal(token.scope, 'customers products');
    assert.equal(token.expires_in, 900);

    const server = await spawnServe([], env);
    const ok = await fetch(`${server.url}/v1/customers/x`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    assert.notEqual(ok.status, 401);
    const denied = await fetch(`${server.url}/v1/vouchers/x`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    assert.equal(denied.status, 403);
    await server.stop();

    const bad = await runCli(['token', '--scope', 'api,vouchers'], { env });
    assert.equal(bad.code, 1);
    assert.deepEqual(JSON.parse(bad.stderr), {
      code: 400,
      key: 'invalid_scope',
      message: 'Invalid scope',
      details:
        'Invalid scope api,vouchers: scopes are names from the documented list, separated by spaces (never commas)',
    });
  });

  it('exits 2 on usage errors and 0 on --help, for every command', async () => {
    assert.equal((await runCli(['no-such-command'])).code, 2);
    assert.equal((await runCli([])).code, 2, 'no command');
    assert.equal((await runCli(['keys'])).code, 2, 'no subcommand');
    assert.equal((await runCli(['keys', 'revoke'])).code, 2, 'missing argument');
    assert.equal((await runCli(['serve', '--nope'])).code, 2, 'unknown option');
    for (const args of [
      [],
      ['serve'],
      ['migrate'],
      ['keys'],
      ['keys', 'create'],
      ['keys', 'list'],
      ['keys', 'revoke'],
      ['token'],
    ]) {
      const res = await runCli([...args, '--help']);
      assert.equal(res.code, 0, args.join(' '));
      assert.match(res.stdout, /^Usage: promo/, args.join(' '));
    }
  });

  it('--version and -V print the version of package.json and exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V'])
      assert.deepEqual(await runCli([flag]), { code: 0, stdout: `${version}\n`, stderr: '' }, flag);
  });

  it('serve and keys create on the same file at once: both work, and the new key is accepted at once', async () => {
    const env = { PROMO_DB: await freshDatabase(), PROMO_APP_ID: 'boot', PROMO_APP_TOKEN: 'boot-secret' };
    const server = await spawnServe([], env);
    const load = (async () => {
      // Keep the server busy writing (token issues) while the CLI creates keys.
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${server.url}/v1/oauth/token`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'X-App-Id': 'boot',
            'X-App-Token': 'boot-secret',
          },
          body: 'grant_type=client_credentials&scope=api',
        });
        assert.equal(res.status, 200);
      }
    })();
    const created = await Promise.all(
      [1, 2, 3].map(() => runCli(['keys', 'create', '--json'], { env: { PROMO_DB: env.PROMO_DB } })),
    );
    await load;
    for (const res of created) {
      assert.equal(res.code, 0, res.stderr);
      const key = JSON.parse(res.stdout);
      const check = await fetch(`${server.url}/v1/anything`, {
        headers: { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token },
      });
      assert.equal(check.status, 404, 'the new key opens /v1 on the running server');
    }
    assert.equal(await server.stop(), 0);
  });
});
