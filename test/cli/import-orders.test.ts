import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROMO_BIN, runCli } from '../support/cli.js';
import { dbFingerprint, tempDir } from '../support/db.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const order = (sourceId: string, extra: Record<string, unknown> = {}) => ({
  source_id: sourceId,
  status: 'PAID',
  customer: { source_id: 'cli-ann' },
  items: [{ quantity: 1, price: 1000 }],
  ...extra,
});

/** `promo import orders.json` (the reference's "Import Orders", from a file): ORDERS.IMPORT from a streamed file, run in-process. */
describe('promo import (orders)', () => {
  let server: TestServer;
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const orderCount = () => (sqliteOf(server.deps).prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('imports a JSON array (orders by default), prints the result and each failure, and exits 1 when one failed', async () => {
    const path = file(
      'orders.json',
      JSON.stringify([order('a-1'), order('a-bad', { discount_amount: 5000 }), order('a-2')]),
    );
    const res = await runCli(['import', path, '--db', server.dbFile]);
    assert.equal(res.code, 1);
    assert.equal(
      res.stdout,
      "2 order(s) imported successfully, 1 failed.\n  a-bad: discount_amount and the items' discount_amount (5000 in all) must not exceed amount (1000)\n",
    );
    assert.deepEqual(JSON.parse(res.stderr), {
      code: 400,
      key: 'import_failed',
      message: 'Some items were not imported',
      details: `1 of 3 item(s) failed; see ${JSON.parse(res.stderr).details.split('see ')[1]}`,
    });
    assert.equal((await server.request('GET', '/v1/orders/a-2')).body.amount, 1000);
  });

  it('reads NDJSON and stdin, and prints the async action with --json', async () => {
    const ndjson = file('orders.ndjson', `${JSON.stringify(order('n-1'))}\n\n${JSON.stringify(order('n-2'))}\n`);
    const res = await runCli(['import', ndjson, '--db', server.dbFile]);
    assert.deepEqual([res.code, res.stdout], [0, '2 order(s) imported successfully, 0 failed.\n']);
    const piped = await runCli(['import', '-', '--json', '--db', server.dbFile], {
      input: JSON.stringify([order('s-1')]),
    });
    assert.equal(piped.code, 0, piped.stderr);
    const action = JSON.parse(piped.stdout);
    assert.deepEqual(
      [action.type, action.status, action.result],
      [
        'ORDERS.IMPORT',
        'DONE',
        { message: '1 order(s) imported successfully, 0 failed.', failed: [], done_count: 1, failed_count: 0 },
      ],
    );
    assert.deepEqual(action, (await server.request('GET', `/v1/async-actions/${action.id}`)).body);
  });

  it('--dry-run checks every order as the import would and writes nothing', async () => {
    const path = file(
      'dry.json',
      JSON.stringify([order('d-1'), order('d-bad', { status: 'LOST' }), order('d-2', { discount_amount: 2000 })]),
    );
    const before = dbFingerprint(sqliteOf(server.deps));
    const res = await runCli(['import', path, '--dry-run', '--db', server.dbFile]);
    assert.equal(res.code, 1);
    assert.equal(
      res.stdout,
      [
        '1 order(s) would be imported, 2 would fail. Nothing was written.',
        '  d-bad: status must be one of: CREATED, PAID, CANCELED, FULFILLED',
        "  d-2: discount_amount and the items' discount_amount (2000 in all) must not exceed amount (1000)",
        '',
      ].join('\n'),
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    const good = await runCli([
      'import',
      file('dry-good.json', JSON.stringify([order('d-3')])),
      '--dry-run',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(
      [good.code, good.stdout],
      [0, '1 order(s) would be imported, 0 would fail. Nothing was written.\n'],
    );
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('keeps none of a file cut off half-way, and names where it broke', async () => {
    const whole = JSON.stringify([order('cut-1'), order('cut-2'), order('cut-3')]);
    const cut = whole.slice(0, whole.indexOf('cut-3') + 3);
    const before = orderCount();
    const res = await runCli(['import', file('cut.json', cut), '--db', server.dbFile]);
    assert.equal(res.code, 1);
    const body = JSON.parse(res.stderr) as { key: string; details: string };
    assert.equal(body.key, 'invalid_payload');
    assert.match(
      body.details,
      new RegExp(
        `^The file is not a JSON array of orders: .+ \\(after 2 whole orders, by byte ${Buffer.byteLength(cut)}\\)$`,
      ),
    );
    assert.equal(orderCount(), before);
    const job = (await server.request('GET', '/v1/async-actions?limit=1')).body.async_actions[0];
    assert.deepEqual([job.type, job.status], ['ORDERS.IMPORT', 'FAILED']);
  });

  it('refuses --resume with a file, a file missing, and --dry-run of vouchers', async () => {
    assert.deepEqual(await runCli(['import', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: give a file to import (or - for stdin), or --resume <job id>\n',
    });
    assert.deepEqual(await runCli(['import', 'x.json', '--resume', 'aa_x', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: --resume takes no file: the job already holds its items\n',
    });
    assert.deepEqual(
      await runCli(['import', 'x.json', '--type', 'vouchers', '--campaign', 'C', '--dry-run', '--db', server.dbFile]),
      {
        code: 2,
        stdout: '',
        stderr: 'error: --dry-run checks orders only\n',
      },
    );
    const unknown = await runCli(['import', '--resume', 'aa_none', '--db', server.dbFile]);
    assert.deepEqual([unknown.code, JSON.parse(unknown.stderr).key], [1, 'not_found']);
  });

  it('after a SIGKILL in the middle, --resume finishes the job with every order written once', async () => {
    const total = 20_000;
    const lines = Array.from({ length: total }, (_, i) =>
      JSON.stringify(order(`big-${i}`, { customer: { source_id: `big-c${i % 50}` } })),
    );
    const path = file('big.ndjson', `${lines.join('\n')}\n`);
    const child = spawn(process.execPath, [PROMO_BIN, 'import', path, '--db', server.dbFile], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const jobOf = () =>
      sqliteOf(server.deps)
        .prepare(
          "SELECT id, done_count, sealed FROM async_actions WHERE type = 'ORDERS.IMPORT' ORDER BY created_at DESC LIMIT 1",
        )
        .get() as { id: string; done_count: number; sealed: number } | undefined;
    let job = jobOf();
    for (let i = 0; i < 3000 && !(job && job.sealed === 1 && job.done_count > 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      job = jobOf();
    }
    child.kill('SIGKILL');
    await exited;
    job = jobOf() as { id: string; done_count: number; sealed: number };
    assert.ok(job.done_count > 0 && job.done_count < total, `killed at ${job.done_count} of ${total}`);
    const res = await runCli(['import', '--resume', job.id, '--db', server.dbFile]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `${total} order(s) imported successfully, 0 failed.\n`);
    const stored = sqliteOf(server.deps)
      .prepare("SELECT count(*) AS n, count(DISTINCT source_id) AS d FROM orders WHERE source_id LIKE 'big-%'")
      .get();
    assert.deepEqual(stored, { n: total, d: total });
    const c0 = (await server.request('GET', '/v1/customers/big-c0')).body.summary.orders;
    assert.deepEqual([c0.total_count, c0.total_amount], [total / 50, (total / 50) * 1000]);
  });
});
