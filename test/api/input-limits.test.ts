import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { LIMITS } from '../../src/lib/limits.js';
import { dbFingerprint } from '../support/db.js';
import {
  errorBody,
  internalErrorBody,
  requestIdOf,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

/** `{"a":{"a":...{}}}` nested `depth` levels deep (the outer object counts as one). */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

const invalid = (res: TestResponse, details: string) =>
  errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details });

describe('input limits at the edge', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/customers', { body: { source_id: 'known' } });
    await server.request('POST', '/v1/products', { body: { source_id: 'p1', name: 'P1' } });
  });
  after(() => server.close());

  const deepTargets: Array<[string, string]> = [
    ['POST', '/v1/customers'],
    ['PUT', '/v1/customers/known'],
    ['POST', '/v1/products'],
    ['PUT', '/v1/products/p1'],
    ['POST', '/v1/products/p1/skus'],
    ['POST', '/v1/campaigns'],
    ['POST', '/v1/product-collections'],
  ];

  it('refuses JSON nested deeper than the limit on every write, at any depth, and writes nothing', async () => {
    for (const depth of [LIMITS.jsonDepth + 1, 4_200, 100_000]) {
      for (const [method, path] of deepTargets) {
        const before = dbFingerprint(sqliteOf(server.deps));
        // Built as text: JSON.stringify itself cannot go 100,000 levels deep.
        const raw = `{"name":"x","metadata":${'{"a":'.repeat(depth - 2)}{}${'}'.repeat(depth - 2)}}`;
        const res = await server.request(method, path, { raw, headers: { 'Content-Type': 'application/json' } });
        assert.equal(res.status, 400, `${method} ${path} at depth ${depth}`);
        assert.deepEqual(
          res.body,
          invalid(res, `The body nests deeper than ${LIMITS.jsonDepth} levels of objects and arrays`),
        );
        assert.equal(dbFingerprint(sqliteOf(server.deps)), before, `${method} ${path} wrote`);
      }
    }
  });

  it('accepts metadata nested up to the limit', async () => {
    const res = await server.request('POST', '/v1/customers', {
      body: { source_id: 'deep', metadata: nested(LIMITS.jsonDepth - 1) },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.metadata, nested(LIMITS.jsonDepth - 1));
  });

  it('answers a scalar or null body with the shape it expected', async () => {
    for (const raw of ['null', '5', '"x"', 'true']) {
      const res = await server.request('POST', '/v1/customers', {
        raw,
        headers: { 'Content-Type': 'application/json' },
      });
      assert.deepEqual(res.body, invalid(res, 'The body must be a JSON object'), raw);
    }
  });

  it('bounds metadata, names and descriptions, with messages that name the limit', async () => {
    const big = { blob: 'x'.repeat(LIMITS.metadataBytes) };
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/v1/customers', { metadata: big }, `metadata must be at most ${LIMITS.metadataBytes} bytes as JSON`],
      ['POST', '/v1/customers', { name: 'n'.repeat(256) }, 'name must be at most 255 characters'],
      ['POST', '/v1/customers', { source_id: 's'.repeat(256) }, 'source_id must be at most 255 characters'],
      [
        'POST',
        '/v1/customers',
        { description: 'd'.repeat(LIMITS.longText + 1) },
        `description must be at most ${LIMITS.longText} characters`,
      ],
      ['POST', '/v1/customers', { email: 5 }, 'email must be a string'],
      ['POST', '/v1/products', { name: 'n'.repeat(256) }, 'name must be at most 255 characters'],
      ['POST', '/v1/products', { metadata: big }, `metadata must be at most ${LIMITS.metadataBytes} bytes as JSON`],
      ['POST', '/v1/products/p1/skus', { sku: 'k'.repeat(256) }, 'sku must be at most 255 characters'],
      [
        'POST',
        '/v1/product-collections',
        { type: 'STATIC', name: 'c'.repeat(256), products: [] },
        'name must be at most 255 characters',
      ],
    ];
    for (const [method, path, body, details] of cases) {
      const before = dbFingerprint(sqliteOf(server.deps));
      const res = await server.request(method, path, { body });
      assert.deepEqual(res.body, invalid(res, details), `${method} ${path} ${details}`);
      assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    }
  });

  it('refuses a voucher code of only spaces, and a campaign name that would read as another campaign id', async () => {
    const template = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } };
    const first = await server.request('POST', '/v1/campaigns', {
      body: { name: 'Spaces', campaign_type: 'DISCOUNT_COUPONS', voucher: template },
    });
    const before = dbFingerprint(sqliteOf(server.deps));
    const blank = await server.request('POST', '/v1/campaigns/Spaces/vouchers', { body: { code: '   ' } });
    assert.deepEqual(blank.body, invalid(blank, 'code must hold a character other than white space'));
    const named = await server.request('POST', '/v1/campaigns', {
      body: { name: first.body.id, campaign_type: 'DISCOUNT_COUPONS', voucher: template },
    });
    assert.deepEqual(named.body, invalid(named, 'name must not start with camp_, which campaign ids do'));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it('answers a record that cannot be written as JSON with the JSON 500 body, its request id and a log line', async () => {
    // A value stored before the limits existed: deeper than JSON.stringify can go.
    const poisoned = `${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}`;
    sqliteOf(server.deps).prepare('UPDATE customers SET metadata = ? WHERE source_id = ?').run(poisoned, 'known');
    const res = await server.request('GET', '/v1/customers/known');
    assert.equal(res.status, 500);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(res.body, internalErrorBody(res));
    assert.ok(
      server.logged.some((line) => line.includes(requestIdOf(res))),
      server.logged.join('\n'),
    );
  });

  it('answers headers over 16 KiB with 431 and the JSON error body', async () => {
    const { status, headers, text } = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      text: string;
    }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/health`, { headers: { 'X-Big': 'h'.repeat(100_000) } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 431);
    const requestId = headers['x-request-id'];
    assert.match(String(requestId), /^v-[0-9a-f]{18}$/);
    assert.deepEqual(JSON.parse(text), {
      code: 431,
      key: 'headers_too_large',
      message: 'Request header fields too large',
      details: 'The request headers exceed 16 KiB',
      request_id: requestId,
    });
  });
});
