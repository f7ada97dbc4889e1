import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/cli.js';
import { tempFiles } from '../support/db.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

/** Orders the API refuses, one field wrong in each (as JSON text: some are not JSON.stringify's). */
const REFUSED_FIELDS: Record<string, string> = {
  'bad-amount': '"amount": -5',
  'bad-fraction': '"amount": 10.5',
  'bad-text-amount': '"amount": "100"',
  'bad-unsafe': '"amount": 9007199254740993',
  'bad-status': '"status": "LOST"',
  'bad-quantity': '"items": [{"quantity": 0, "price": 100}]',
  'bad-price': '"items": [{"quantity": 1, "price": 1.5e20}]',
  'bad-created': '"created_at": "yesterday"',
  'bad-email': '"customer": {"source_id": "c-bad", "email": "nope"}',
  'bad-metadata': '"metadata": "text"',
};

/** Numbers JSON.parse reads as Infinity, in several fields: stored, each would become a null. */
const HUGE_NUMBERS = [
  '"amount": 1e400',
  '"items": [{"quantity": 1, "price": 1E+999}]',
  '"metadata": {"n": -1e400}',
  '"customer": {"source_id": "c-huge", "metadata": {"n": 1e309}}',
];

const orderText = (sourceId: string, field: string) => `{"source_id": "${sourceId}", ${field}}`;

/** `promo import` and the API refuse the same orders with the same words: one path of checks. */
describe('promo import checks each order as the API does', () => {
  let server: TestServer;
  const file = tempFiles();
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const postOrder = (raw: string) =>
    server.request('POST', '/v1/orders', { raw, headers: { 'Content-Type': 'application/json' } });

  it("refuses each order the API refuses, each with the details of the API's 400", async () => {
    const expected: string[] = [];
    for (const [sourceId, field] of Object.entries(REFUSED_FIELDS)) {
      const res = await postOrder(orderText(sourceId, field));
      assert.equal(res.status, 400, `${sourceId}: ${res.text}`);
      expected.push(`  ${sourceId}: ${res.body.details as string}`);
    }
    const good = orderText('good-1', '"amount": 700');
    const path = file(
      'orders.json',
      `[${[...Object.entries(REFUSED_FIELDS).map(([id, field]) => orderText(id, field)), good].join(',\n')}]`,
    );
    const res = await runCli(['import', path, '--db', server.dbFile]);
    assert.equal(res.code, 1, res.stderr);
    assert.equal(
      res.stdout,
      [`1 order(s) imported successfully, ${expected.length} failed.`, ...expected, ''].join('\n'),
    );
  });

  it('refuses a file with a number too large to represent, in any field, as the API refuses the body, and imports none of it', async () => {
    for (const [i, field] of HUGE_NUMBERS.entries()) {
      const api = await postOrder(orderText(`huge-api-${i}`, field));
      assert.deepEqual(
        [api.status, api.body.details],
        [400, 'Request body holds a number too large to represent (its magnitude must stay below 1.8e308)'],
        field,
      );
      for (const [name, text] of [
        ['huge.json', `[${orderText('fine', '"amount": 1')}, ${orderText(`huge-${i}`, field)}]`],
        ['huge.ndjson', `${orderText('fine', '"amount": 1')}\n${orderText(`huge-${i}`, field)}\n`],
      ]) {
        for (const dryRun of [[], ['--dry-run']]) {
          const res = await runCli(['import', file(name as string, text as string), ...dryRun, '--db', server.dbFile]);
          assert.deepEqual(
            [res.code, res.stdout, JSON.parse(res.stderr)],
            [
              1,
              '',
              {
                code: 400,
                key: 'invalid_payload',
                message: 'Invalid payload',
                details:
                  'Item 2 of the file holds a number too large to represent (its magnitude must stay below 1.8e308)',
              },
            ],
            `${name} ${field} ${dryRun.join('')}`,
          );
        }
      }
      // None of the file was kept, not even the order before the bad one.
      const orders = sqliteOf(server.deps)
        .prepare("SELECT count(*) AS n FROM orders WHERE source_id IN ('fine', ?)")
        .get(`huge-${i}`) as { n: number };
      assert.equal(orders.n, 0);
    }
  });

  it('refuses a __proto__ key and nesting past the limit in a file, as in a body', async () => {
    const cases: Array<[string, string]> = [
      ['{"source_id": "proto", "metadata": {"__proto__": {"admin": true}}}', 'may not contain the key "__proto__"'],
      [
        `{"source_id": "deep", "metadata": {"a": ${'['.repeat(40)}${']'.repeat(40)}}}`,
        'nests deeper than 32 levels of objects and arrays',
      ],
    ];
    for (const [order, defect] of cases) {
      const api = await postOrder(order);
      assert.equal(api.status, 400);
      assert.match(
        api.body.details as string,
        new RegExp(`^(Request|The) body ${defect.replace(/[[\]()"]/g, '\\$&')}$`),
      );
      const res = await runCli(['import', file('defect.json', `[${order}]`), '--db', server.dbFile]);
      assert.deepEqual([res.code, JSON.parse(res.stderr).details], [1, `Item 1 of the file ${defect}`]);
    }
  });
});
