import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/db.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** `promo export <type>`: the spawned binary on the server's database, the same service in process. */
describe('promo export', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    for (const [source_id, name] of [
      ['c1', 'Zed, "Z"'],
      ['c2', 'Amy\nLee'],
    ])
      await server.request('POST', '/v1/customers', { body: { source_id, name } });
  });
  after(() => server.close());
  // The command writes its file where the server serves files from (on PostgreSQL none lies beside the database).
  const promo = (args: string[]) => runCli(args, { env: { PROMO_EXPORTS_DIR: server.deps.exportsDir } });

  it('streams the CSV to stdout, or writes it to --out, with --fields and --order', async () => {
    const plain = await promo(['export', 'customer', '--db', server.dbFile]);
    assert.deepEqual(plain, { code: 0, stdout: 'name,source_id\r\n"Zed, ""Z""",c1\r\n"Amy\nLee",c2\r\n', stderr: '' });
    const out = join(tempDir(), 'customers.csv');
    const written = await promo([
      'export',
      'customer',
      '--fields',
      'source_id,name',
      '--order',
      '-created_at',
      '--filters',
      '{"source_id":{"conditions":{"$in":["c1"]}}}',
      '--out',
      out,
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(written, { code: 0, stdout: `Exported 1 row(s) to ${out}\n`, stderr: '' });
    assert.equal(readFileSync(out, 'utf8'), 'source_id,name\r\nc1,"Zed, ""Z"""\r\n');
  });

  it('prints the export object with --json, as GET /v1/exports/{id} answers it (the path for its url)', async () => {
    const res = await promo(['export', 'order', '--json', '--db', server.dbFile]);
    assert.equal(res.code, 0, res.stderr);
    const printed = JSON.parse(res.stdout);
    const answered = (await server.request('GET', `/v1/exports/${printed.id}`)).body;
    assert.deepEqual(printed, { ...answered, result: { url: `/v1/exports/${printed.id}/download` } });
    assert.deepEqual(
      [printed.channel, printed.status, printed.parameters],
      ['CLI', 'DONE', { fields: ['id', 'source_id', 'status'] }],
    );
    assert.equal((await server.request('GET', `/v1/exports/${printed.id}/download`)).text, 'id,source_id,status\r\n');
  });

  it('exits 2 for an unknown type or bad --filters, and 1 with the error body for parameters that do not fit', async () => {
    assert.deepEqual(await promo(['export', 'coupons', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr:
        'error: <type> must be one of: voucher, redemption, customer, order, points_expiration, voucher_transactions\n',
    });
    assert.deepEqual(await promo(['export', 'order', '--filters', '{', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: --filters must be a JSON object, as parameters.filters of POST /v1/exports\n',
    });
    const bad = await promo(['export', 'order', '--order', 'amount', '--db', server.dbFile]);
    assert.deepEqual(
      [bad.code, bad.stdout, JSON.parse(bad.stderr)],
      [
        1,
        '',
        {
          code: 400,
          key: 'invalid_export_params',
          message: 'Invalid export params',
          details: 'parameters.order must be one of: created_at, -created_at, id, -id',
        },
      ],
    );
  });
});
