import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { PROMO_BIN, runCli, spawnServe } from '../support/cli.js';
import { freshDbFile, tempDir } from '../support/db.js';
import { freshDatabase, sqliteOnly } from '../support/engine.js';

const KEY = { PROMO_APP_ID: 'mistakes-app', PROMO_APP_TOKEN: 'mistakes-token' };

/** Runs a shell pipeline; `set -o pipefail` makes its status promo's when promo fails. */
function pipeline(script: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail; ${script}`]);
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout }));
  });
}

/** A user mistake is one plain sentence on stderr and exit 1: never a 500 body, never a stack. */
describe('the command line names user mistakes plainly', () => {
  it(
    'says which folder is missing for backup, export --out, and the --db of migrate and serve',
    sqliteOnly('--db names a file in a missing folder, and backup copies the file'),
    async () => {
      const db = freshDbFile();
      const missing = join(tempDir(), 'no-such-folder');
      const cases: Array<[string[], string]> = [
        [['backup', join(missing, 'b.db'), '--db', db], join(missing, 'b.db')],
        [['export', 'order', '--out', join(missing, 'orders.csv'), '--db', db], join(missing, 'orders.csv')],
        [['migrate', '--db', join(missing, 'promo.db')], join(missing, 'promo.db')],
        [['serve', '--port', '0', '--db', join(missing, 'promo.db')], join(missing, 'promo.db')],
      ];
      for (const [args, path] of cases) {
        assert.deepEqual(
          await runCli(args, { env: KEY }),
          { code: 1, stdout: '', stderr: `error: cannot write ${path}: the folder ${missing} does not exist\n` },
          args[0],
        );
      }
      assert.equal(existsSync(missing), false);
    },
  );

  it(
    'says a --db that names a text file is not a promo database, for every command',
    sqliteOnly('--db names a file that is not SQLite'),
    async () => {
      const notes = join(tempDir(), 'notes.txt');
      writeFileSync(notes, 'not a database\n');
      const commands = [
        ['migrate'],
        ['keys', 'list'],
        ['export', 'order'],
        ['backup', join(tempDir(), 'b.db')],
        ['restore', freshDbFile()],
        ['serve', '--port', '0'],
      ];
      for (const args of commands) {
        assert.deepEqual(
          await runCli([...args, '--db', notes], { env: KEY }),
          { code: 1, stdout: '', stderr: `error: ${notes} is not a promo database (it is not a SQLite file)\n` },
          args[0],
        );
      }
      assert.equal(readFileSync(notes, 'utf8'), 'not a database\n');
      const folder = tempDir();
      assert.deepEqual(await runCli(['migrate', '--db', folder]), {
        code: 1,
        stdout: '',
        stderr: `error: ${folder} is a folder, not a database file\n`,
      });
    },
  );

  it('says an import file is missing or a folder, and a bad PROMO_LOG_LEVEL is bad usage (exit 2)', async () => {
    const db = await freshDatabase();
    const folder = tempDir();
    assert.deepEqual(await runCli(['import', folder, '--db', db]), {
      code: 1,
      stdout: '',
      stderr: `error: ${folder} is a folder, not a file\n`,
    });
    assert.deepEqual(await runCli(['import', join(folder, 'none.json'), '--db', db]), {
      code: 1,
      stdout: '',
      stderr: `error: no file at ${join(folder, 'none.json')}\n`,
    });
    assert.deepEqual(await runCli(['keys', 'list', '--db', db], { env: { PROMO_LOG_LEVEL: 'loud' } }), {
      code: 2,
      stdout: '',
      stderr: 'error: Invalid log level: loud (fatal, error, warn, info, debug, trace, silent)\n',
    });
  });

  it('stops quietly with exit 0 when the reader closes the pipe (promo export | head -1)', async () => {
    const db = await freshDatabase();
    // Far more CSV than a pipe holds (64 KiB), so promo is still writing when head has gone.
    const rows = Array.from({ length: 6000 }, (_, i) => `pipe-${i},Customer number ${i} with a long enough name`);
    const csv = join(tempDir(), 'customers.csv');
    writeFileSync(csv, ['source_id,name', ...rows].join('\n'));
    assert.equal((await runCli(['import', csv, '--type', 'customers', '--db', db])).code, 0);
    const errors = join(tempDir(), 'stderr.txt');
    const res = await pipeline(
      `'${process.execPath}' '${PROMO_BIN}' export customer --db '${db}' 2>'${errors}' | head -1`,
    );
    assert.deepEqual([res.code, res.stdout, readFileSync(errors, 'utf8')], [0, 'name,source_id\r\n', '']);
  });
});

describe('a mistyped --db makes no database', sqliteOnly('a mistyped file path (a URL names no file)'), () => {
  it('is refused by every command but serve and migrate, and the file is not created', async () => {
    const file = join(tempDir(), 'promo-typo.db');
    const orders = join(tempDir(), 'orders.json');
    writeFileSync(orders, '[{"source_id":"o-1","amount":100}]');
    const commands = [
      ['keys', 'list'],
      ['keys', 'create'],
      ['keys', 'revoke', 'app'],
      ['token'],
      ['generate', 'Camp', '--count', '1'],
      ['import', orders],
      ['export', 'order'],
      ['balance', 'CARD', '+10'],
      ['loyalty', 'transactions', 'CARD'],
      ['loyalty', 'members', 'Prog'],
      ['jobs', '--once'],
      ['jobs', 'cancel', 'aa_1'],
      ['stacking-rules'],
      ['stacking-rules', 'set', '--mode', 'ALL'],
      ['vacuum'],
      ['backup', join(tempDir(), 'b.db')],
    ];
    for (const args of commands) {
      assert.deepEqual(
        await runCli([...args, '--db', file]),
        {
          code: 1,
          stdout: '',
          stderr: `error: no promo database at ${file}; \`promo migrate --db ${file}\` creates one\n`,
        },
        args.join(' '),
      );
    }
    assert.equal(existsSync(file), false);
    // The default file, ./promo.db, is no exception.
    const cwd = tempDir();
    assert.deepEqual(await runCli(['keys', 'list'], { cwd }), {
      code: 1,
      stdout: '',
      stderr: 'error: no promo database at ./promo.db; `promo migrate --db ./promo.db` creates one\n',
    });
    assert.equal(existsSync(join(cwd, 'promo.db')), false);
  });

  it('serve makes a new database and says so on its first line, with the full path', async () => {
    const file = join(tempDir(), 'new.db');
    const server = await spawnServe(['--db', file], KEY);
    try {
      assert.equal(server.stderr().split('\n')[0], `Created a new promo database at ${resolve(file)}`);
      assert.equal((await server.request('GET', '/v1/customers')).status, 200);
    } finally {
      await server.stop();
    }
    const again = await spawnServe(['--db', file], KEY);
    await again.stop();
    assert.doesNotMatch(again.stderr(), /Created/);
  });
});
