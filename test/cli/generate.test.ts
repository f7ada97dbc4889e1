import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { runCli } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

describe('promo generate', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Cli', {}, { code_config: { prefix: 'CLI-', length: 5, charset: 'ABC' } }),
    });
  });
  after(() => server.close());

  it('adds one voucher and prints its code (or, with --json, the voucher)', async () => {
    const plain = await runCli(['generate', 'Cli', '--count', '1', '--db', server.dbFile]);
    assert.deepEqual([plain.code, plain.stderr], [0, '']);
    assert.match(plain.stdout, /^CLI-[ABC]{5}\n$/);
    const json = await runCli(['generate', 'Cli', '--count', '1', '--db', server.dbFile, '--json']);
    assert.equal(json.code, 0);
    const voucher = JSON.parse(json.stdout);
    assert.deepEqual(voucher, (await server.request('GET', `/v1/vouchers/${voucher.code}`)).body);
  });

  it('runs a generation job in-process with the given code config', async () => {
    const res = await runCli([
      'generate',
      'Cli',
      '--count',
      '400',
      '--pattern',
      'G-####',
      '--charset',
      '0123456789',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(res, { code: 0, stdout: 'Generated 400 vouchers.\n', stderr: '' });
    const codes = sqliteOf(server.deps).prepare("SELECT code FROM vouchers WHERE code LIKE 'G-%'").all() as Array<{
      code: string;
    }>;
    assert.equal(new Set(codes.map((c) => c.code)).size, 400);
    for (const { code } of codes) assert.match(code, /^G-\d{4}$/);

    const json = await runCli(['generate', 'Cli', '--count', '3', '--db', server.dbFile, '--json']);
    assert.equal(json.code, 0);
    const action = JSON.parse(json.stdout);
    assert.deepEqual(action, (await server.request('GET', `/v1/async-actions/${action.id}`)).body);
    assert.deepEqual(
      [action.type, action.status, action.operation_status, action.result],
      ['CAMPAIGN.VOUCHERS_GENERATE', 'DONE', 'SUCCESS', { message: 'Generated 3 vouchers.', done_count: 3 }],
    );
    assert.match(action.request_id, /^c-[0-9a-f]{18}$/);
  });

  it('fails with the error body for an unknown campaign or a code space too small', async () => {
    const missing = await runCli(['generate', 'Nope', '--count', '2', '--db', server.dbFile]);
    assert.deepEqual([missing.code, missing.stdout], [1, '']);
    assert.deepEqual(JSON.parse(missing.stderr), {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find campaign with id Nope',
      resource_id: 'Nope',
      resource_type: 'campaign',
    });
    const tight = await runCli([
      'generate',
      'Cli',
      '--count',
      '3',
      '--pattern',
      '#',
      '--charset',
      'xyz',
      '--db',
      server.dbFile,
    ]);
    assert.equal(tight.code, 1);
    assert.deepEqual(JSON.parse(tight.stderr), {
      code: 400,
      key: 'invalid_code_config',
      message: 'Invalid code config',
      details:
        'Cannot generate 3 code(s): the code config allows 3 distinct code(s), 0 of them are already taken or reserved, and a request may use at most half of what is left (1).',
    });
  });

  it('is a usage error (exit 2) without a valid --count or --length', async () => {
    for (const [args, message] of [
      [['--count', '0'], 'error: --count must be an integer from 1 to 10000000\n'],
      [['--count', '2', '--length', 'x'], 'error: --length must be an integer from 1 to 255\n'],
    ] as const) {
      const res = await runCli(['generate', 'Cli', ...args, '--db', server.dbFile]);
      assert.deepEqual(res, { code: 2, stdout: '', stderr: message });
    }
    const none = await runCli(['generate', 'Cli', '--db', server.dbFile]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /required option '--count <n>' not specified/);
  });
});
