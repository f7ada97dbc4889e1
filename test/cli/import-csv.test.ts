import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/cli.js';
import { tempFiles } from '../support/db.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** `promo import file.csv --type customers|products|skus|vouchers`: the CSV import jobs, from the shell. */
describe('promo import (CSV)', () => {
  let server: TestServer;
  const file = tempFiles();
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('imports a customers CSV (any column order, quoted newlines) and exits 0', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `"Customer ${i}\nsecond line",cli-${i},c${i}@example.com`);
    const path = file('customers.csv', ['\uFEFFName,Source_id,Email', ...rows].join('\n'));
    const res = await runCli(['import', path, '--type', 'customers', '--db', server.dbFile]);
    assert.deepEqual(res, { code: 0, stdout: '1500 customer(s) imported successfully, 0 failed.\n', stderr: '' });
    const one = (await server.request('GET', '/v1/customers/cli-1499')).body;
    assert.deepEqual([one.name, one.email], ['Customer 1499\nsecond line', 'c1499@example.com']);
  });

  it('lists each failed row and exits 1; --json prints the async action', async () => {
    const path = file('bad.csv', 'source_id,email\ncli-bad-1,nope\ncli-ok,ok@example.com\n,also-bad\n');
    const res = await runCli(['import', path, '--type', 'customers', '--db', server.dbFile]);
    assert.equal(res.code, 1);
    assert.equal(
      res.stdout,
      [
        '1 customer(s) imported successfully, 2 failed.',
        '  row 1: cli-bad-1: email must be a valid e-mail address',
        '  row 3: (no source_id): email must be a valid e-mail address',
        '',
      ].join('\n'),
    );
    const json = await runCli(['import', '-', '--type', 'customers', '--db', server.dbFile, '--json'], {
      input: 'source_id,birthdate\ncli-d,1990-13-01\n',
    });
    assert.equal(json.code, 1);
    const action = JSON.parse(json.stdout);
    assert.deepEqual(action, (await server.request('GET', `/v1/async-actions/${action.id}`)).body);
    assert.deepEqual(action.result, {
      message: '0 customer(s) imported successfully, 1 failed.',
      failed: [{ source_id: 'cli-d', row: 1, reason: 'birthdate must be a date in YYYY-MM-DD format' }],
      done_count: 0,
      failed_count: 1,
      reports: [`/v1/async-actions/${action.id}/failures`],
    });
  });

  it('imports products, then their SKUs', async () => {
    const products = await runCli([
      'import',
      file('p.csv', 'name,source_id,attributes\nCLI Tee,cli-tee,"color,size"\n'),
      '--type',
      'products',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(products, { code: 0, stdout: '1 product(s) imported successfully, 0 failed.\n', stderr: '' });
    const skus = await runCli([
      'import',
      file('s.csv', 'source_id,product_id,attributes\ncli-tee-s,cli-tee,{size:S}\ncli-tee-x,cli-nope,\n'),
      '--type',
      'skus',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(skus, {
      code: 1,
      stdout: '1 sku(s) imported successfully, 1 failed.\n  row 2: cli-tee-x: Cannot find product with id cli-nope\n',
      stderr: skus.stderr,
    });
    assert.deepEqual((await server.request('GET', '/v1/skus/cli-tee-s')).body.attributes, { size: 'S' });
  });

  it("imports standalone vouchers, or a campaign's with --campaign", async () => {
    const standalone = await runCli([
      'import',
      file('v.csv', 'Code,Voucher Type,Value\nCLI-G,GIFT_VOUCHER,900\n'),
      '--type',
      'vouchers',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(standalone, { code: 0, stdout: '1 voucher(s) imported successfully, 0 failed.\n', stderr: '' });
    assert.deepEqual((await server.request('GET', '/v1/vouchers/CLI-G')).body.gift, {
      amount: 900,
      subtracted_amount: 0,
      balance: 900,
      effect: null,
    });
    await server.request('POST', '/v1/campaigns', {
      body: {
        name: 'CLI Cards',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
      },
    });
    const cards = await runCli([
      'import',
      file('cards.csv', 'code,value\nCLI-C1,40\nCLI-G,1\n'),
      '--type',
      'vouchers',
      '--campaign',
      'CLI Cards',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(
      [cards.code, cards.stdout],
      [1, '1 voucher(s) imported successfully, 1 failed.\n  row 2: CLI-G: Voucher with code CLI-G already exists\n'],
    );
    assert.equal((await server.request('GET', '/v1/vouchers/CLI-C1')).body.loyalty_card.points, 40);
  });

  it('refuses a JSON file for a CSV-only type, and malformed CSV', async () => {
    assert.deepEqual(await runCli(['import', file('c.json', '[]'), '--type', 'customers', '--db', server.dbFile]), {
      code: 2,
      stdout: '',
      stderr: 'error: --type customers reads csv, not json\n',
    });
    const broken = await runCli([
      'import',
      file('broken.csv', 'source_id,name\na,"unclosed\n'),
      '--type',
      'customers',
      '--db',
      server.dbFile,
    ]);
    assert.deepEqual(
      [broken.code, broken.stdout, JSON.parse(broken.stderr)],
      [
        1,
        '',
        {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details:
            'The file is not CSV of customers: Quote Not Closed: the parsing is finished with an opening quote at line 2 (after 0 whole row(s))',
        },
      ],
    );
  });
});
