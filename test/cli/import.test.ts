import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/db.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('promo import', () => {
  let server: TestServer;
  const dir = tempDir();
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'Members',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      },
    });
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Coupons') });
  });
  after(() => server.close());

  it('imports a file of vouchers and exits 0', async () => {
    const items = Array.from({ length: 2500 }, (_, i) => ({ code: `BULK-${i}`, loyalty_card: { points: i } }));
    const res = await runCli([
      'import',
      file('bulk.json', JSON.stringify(items)),
      '--type',
      'vouchers',
      '--campaign',
      'Members',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(res, { code: 0, stdout: '2500 voucher(s) imported successfully, 0 failed.\n', stderr: '' });
    assert.equal((await server.request('GET', '/v1/campaigns/Members')).body.vouchers_count, 2500);
    assert.deepEqual((await server.request('GET', '/v1/vouchers/BULK-2499')).body.loyalty_card.points, 2499);
  });

  it('lists each failure and exits 1 when an item failed', async () => {
    const path = file(
      'mixed.json',
      JSON.stringify([{ code: 'MIX-1' }, { code: 'MIX-1' }, { code: 'MIX-2', active: 'yes' }, 7, { code: 'MIX-3' }]),
    );
    const res = await runCli(['import', path, '--type', 'vouchers', '--campaign', 'Coupons', '--db', server.dbFile]);
    assert.equal(res.code, 1);
    assert.equal(
      res.stdout,
      [
        '2 voucher(s) imported successfully, 3 failed.',
        '  MIX-1: Voucher with code MIX-1 already exists',
        '  MIX-2: active must be a boolean',
        '  (no code): The item must be an object',
        '',
      ].join('\n'),
    );
    const body = JSON.parse(res.stderr);
    assert.deepEqual(body, {
      code: 400,
      key: 'import_failed',
      message: 'Some items were not imported',
      details: `3 of 5 item(s) failed; see ${body.details.split('see ')[1]}`,
    });

    const json = await runCli([
      'import',
      file('again.json', '[{"code":"MIX-3"},{"code":"MIX-4"}]'),
      '--type',
      'vouchers',
      '--campaign',
      'Coupons',
      '--db',
      server.dbFile,
      '--json',
    ]);
    assert.equal(json.code, 1);
    const action = JSON.parse(json.stdout);
    assert.deepEqual(action, (await server.request('GET', `/v1/async-actions/${action.id}`)).body);
    assert.deepEqual(action.result, {
      message: '1 voucher(s) imported successfully, 1 failed.',
      failed: [{ code: 'MIX-3', reason: 'Voucher with code MIX-3 already exists' }],
      done_count: 1,
      failed_count: 1,
      reports: [`/v1/async-actions/${action.id}/failures`],
    });
  });

  it('refuses an empty order file, usage errors, a missing file and a file that is not an array', async () => {
    const orders = await runCli(['import', file('orders.json', '[]'), '--db', server.dbFile]);
    assert.deepEqual([orders.code, orders.stdout], [1, '']);
    assert.deepEqual(JSON.parse(orders.stderr), {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'The file holds no orders',
    });
    assert.deepEqual(await runCli(['import', 'x.json', '--type', 'vouchers', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: --campaign <id or name> is required with --type vouchers\n',
    });
    assert.deepEqual(await runCli(['import', 'x.json', '--type', 'coupons', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: --type must be orders or vouchers or customers or products or skus, not coupons\n',
    });
    const missing = await runCli([
      'import',
      join(dir, 'none.json'),
      '--type',
      'vouchers',
      '--campaign',
      'Coupons',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: `error: no file at ${join(dir, 'none.json')}\n` });
    const notArray = await runCli([
      'import',
      file('object.json', '{"code":"A"}'),
      '--type',
      'vouchers',
      '--campaign',
      'Coupons',
      '--db',
      server.dbFile,
    ]);
    assert.equal(notArray.code, 1);
    assert.deepEqual(JSON.parse(notArray.stderr), {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'The file is not a JSON array of vouchers: Top-level object should be an array. (by byte 12)',
    });
    const staged = (await server.request('GET', '/v1/async-actions?limit=1')).body.async_actions[0];
    assert.deepEqual([staged.type, staged.status], ['CAMPAIGN.VOUCHERS_IMPORT', 'FAILED']);
    const unknown = await runCli([
      'import',
      file('ok.json', '[{"code":"Z"}]'),
      '--type',
      'vouchers',
      '--campaign',
      'Nope',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual([unknown.code, JSON.parse(unknown.stderr).key], [1, 'not_found']);
  });

  it('reads NDJSON (.ndjson, .jsonl or --format ndjson) and stdin (-), streamed like a JSON array', async () => {
    const lines = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => JSON.stringify({ code: `${prefix}-${i}` })).join('\n');
    const ndjson = await runCli([
      'import',
      file('a.ndjson', `${lines('ND', 1500)}\n\n`),
      '--type',
      'vouchers',
      '--campaign',
      'Coupons',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(ndjson, { code: 0, stdout: '1500 voucher(s) imported successfully, 0 failed.\n', stderr: '' });
    const jsonl = await runCli([
      'import',
      file('b.jsonl', lines('JL', 3)),
      '--type',
      'vouchers',
      '--campaign',
      'Coupons',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(jsonl, { code: 0, stdout: '3 voucher(s) imported successfully, 0 failed.\n', stderr: '' });
    const piped = await runCli(
      ['import', '-', '--format', 'ndjson', '--type', 'vouchers', '--campaign', 'Coupons', '--db', server.dbFile],
      { input: lines('IN', 4) },
    );
    assert.deepEqual(piped, { code: 0, stdout: '4 voucher(s) imported successfully, 0 failed.\n', stderr: '' });
    const array = await runCli(['import', '-', '--type', 'vouchers', '--campaign', 'Coupons', '--db', server.dbFile], {
      input: JSON.stringify([{ code: 'AR-1' }, { code: 'ND-0' }]),
    });
    assert.deepEqual(
      [array.code, array.stdout],
      [1, '1 voucher(s) imported successfully, 1 failed.\n  ND-0: Voucher with code ND-0 already exists\n'],
    );
    assert.match(
      array.stderr,
      /^\{"code":400,"key":"import_failed","message":"Some items were not imported","details":"1 of 2 item\(s\) failed; see aa_[0-9A-Za-z]{16}"\}\n$/,
    );
    for (const code of ['ND-1499', 'JL-2', 'IN-3', 'AR-1'])
      assert.equal((await server.request('GET', `/v1/vouchers/${code}`)).status, 200);
  });

  it('refuses a malformed NDJSON line, naming it, and an unknown --format', async () => {
    const bad = '{"code":"OK-1"}\n{"code": nope}\n';
    const parseError = (() => {
      try {
        JSON.parse('{"code": nope}');
      } catch (error) {
        return (error as Error).message;
      }
    })();
    const res = await runCli([
      'import',
      file('bad.ndjson', bad),
      '--type',
      'vouchers',
      '--campaign',
      'Coupons',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(
      [res.code, res.stdout, JSON.parse(res.stderr)],
      [
        1,
        '',
        {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: `The file is not NDJSON of vouchers: line 2: ${parseError}`,
        },
      ],
    );
    const staged = (await server.request('GET', '/v1/async-actions?limit=1')).body.async_actions[0].id;
    assert.deepEqual((await server.request('GET', `/v1/async-actions/${staged}`)).body.result, {
      message: `The file is not NDJSON of vouchers: line 2: ${parseError}`,
      done_count: 0,
      failed_count: 0,
    });
    assert.equal((await server.request('GET', '/v1/vouchers/OK-1')).status, 404);
    assert.deepEqual(
      await runCli([
        'import',
        'x.json',
        '--format',
        'xml',
        '--type',
        'vouchers',
        '--campaign',
        'Coupons',
        '--db',
        server.dbFile,
      ]),
      {
        code: 2,
        stdout: '',
        stderr: 'error: --format must be json or ndjson or csv, not xml\n',
      },
    );
  });
});
