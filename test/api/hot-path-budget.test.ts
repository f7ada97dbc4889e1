import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { QueryStats } from '../../src/db/engine.js';
import {
  errorBody,
  startTestServer,
  type TestResponse,
  type TestServer,
  type RequestOptions,
} from '../support/server.js';

/**
 * The per-request budget of docs/performance.md ("Hot paths: the statement budget"): how many statements a
 * hot request runs on the API connection and how many queries Kysely compiles for it, counted
 * on the connection (db/sqlite/connect.ts, QueryStats) for the second request of each shape (the
 * first compiles the query templates). A change that adds a query to a hot path fails here
 * until that table says so.
 */
const PERFORMANCE_DOC = new URL('../../docs/performance.md', import.meta.url);

/** The budget rows of docs/performance.md: `| METHOD path | statements | compiles |`. */
function readmeBudget(): Record<string, QueryStats> {
  const text = readFileSync(PERFORMANCE_DOC, 'utf8');
  const section = text.slice(text.indexOf('## Hot paths: the statement budget'));
  const rows = [...section.matchAll(/^\| `((?:GET|POST) [^`]+)` \| (\d+) \| (\d+) \|/gm)];
  return Object.fromEntries(rows.map((m) => [m[1] as string, { statements: Number(m[2]), compiles: Number(m[3]) }]));
}

const ITEMS = [1, 2, 3].map((i) => ({ product_id: null, quantity: i, price: 500 * i }));

describe('hot paths: the statement budget', () => {
  let server: TestServer;
  let customerId: string;
  let otherCustomerId: string;
  before(async () => {
    server = await startTestServer();
    const ok = async (method: string, path: string, options: RequestOptions) => {
      const res = await server.request(method, path, options);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    await ok('POST', '/v1/vouchers/HOT-PCT', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, metadata: { tier: 'gold' } },
    });
    for (const n of [1, 2])
      await ok('POST', `/v1/vouchers/HOT-GIFT-${n}`, { body: { type: 'GIFT_VOUCHER', gift: { amount: 100_000 } } });
    [customerId = '', otherCustomerId = ''] = await Promise.all(
      ['hot', 'warm'].map(
        async (sourceId) =>
          (
            await ok('POST', '/v1/customers', {
              body: { source_id: sourceId, name: 'Hot', metadata: { tier: 'gold' }, address: { city: 'Oslo' } },
            })
          ).id as string,
      ),
    );
  });
  after(() => server.close());

  /**
   * Statements and compiles of one request: the second of two of one shape (the first warms the
   * templates). `secondPath`: the second asks for another object, so no answer kept for the
   * first serves it (http/kept-answers.ts).
   */
  async function cost(
    method: string,
    path: string,
    options: (n: number) => RequestOptions,
    secondPath = path,
  ): Promise<QueryStats> {
    const first = await server.request(method, path, options(1));
    assert.equal(first.status, 200, first.text);
    const before = server.deps.engine.stats().queries;
    const second = await server.request(method, secondPath, options(2));
    const afterwards = server.deps.engine.stats().queries;
    assert.equal(second.status, 200, second.text);
    return { statements: afterwards.statements - before.statements, compiles: afterwards.compiles - before.compiles };
  }

  it('keeps each hot request within the budget of docs/performance.md', async () => {
    const measured: Record<string, QueryStats> = {
      'GET /v1/vouchers/{code}': await cost('GET', '/v1/vouchers/HOT-GIFT-1', () => ({}), '/v1/vouchers/HOT-PCT'),
      'GET /v1/customers/{id}': await cost(
        'GET',
        `/v1/customers/${otherCustomerId}`,
        () => ({}),
        `/v1/customers/${customerId}`,
      ),
      // The URLs were answered once above: their second answer was kept.
      'GET /v1/vouchers/{code} (kept)': await cost('GET', '/v1/vouchers/HOT-PCT', () => ({})),
      'GET /v1/customers/{id} (kept)': await cost('GET', `/v1/customers/${customerId}`, () => ({})),
      'POST /client/v1/validations': await cost('POST', '/client/v1/validations', () => ({
        auth: 'client',
        body: { redeemables: [{ object: 'voucher', id: 'HOT-PCT' }], order: { items: ITEMS } },
      })),
      'POST /v1/redemptions': await cost('POST', '/v1/redemptions', (n) => ({
        body: {
          customer: { source_id: 'hot' },
          order: { items: ITEMS },
          redeemables: [
            { object: 'voucher', id: 'HOT-PCT' },
            { object: 'voucher', id: `HOT-GIFT-${n}`, gift: { credits: 30 } },
          ],
        },
      })),
    };
    console.log(JSON.stringify(measured));
    const budget = readmeBudget();
    assert.deepEqual(
      Object.keys(budget),
      Object.keys(measured),
      'docs/performance.md lists a budget for each measured request',
    );
    for (const [request, stats] of Object.entries(measured)) {
      const allowed = budget[request] as QueryStats;
      assert.ok(
        stats.statements <= allowed.statements && stats.compiles <= allowed.compiles,
        `${request} ran ${stats.statements} statements and ${stats.compiles} compiles; docs/performance.md allows ${allowed.statements} and ${allowed.compiles}`,
      );
    }
  });

  /** A GET with a body (fetch cannot send one), over node:http. */
  function getWithBody(path: string, body: string, headers: Record<string, string>): Promise<TestResponse> {
    const auth = { 'X-App-Id': server.serverKey.app_id, 'X-App-Token': server.serverKey.app_token };
    return new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method: 'GET', headers: { ...auth, ...headers } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const headers = new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
          resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(text), text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('reads a GET without parsing its body; a declared size above the limit is still refused', async () => {
    const voucher = await server.request('GET', '/v1/vouchers/HOT-PCT');
    const res = await getWithBody('/v1/vouchers/HOT-PCT', '{"not json', {
      'Content-Type': 'application/json',
      'Content-Length': '10',
    });
    assert.deepEqual({ status: res.status, body: res.body }, { status: 200, body: voucher.body });
    const big = await getWithBody('/v1/vouchers/HOT-PCT', '', {
      'Content-Type': 'application/json',
      'Content-Length': String(64 * 1024 * 1024),
    });
    assert.deepEqual(
      { status: big.status, body: big.body },
      {
        status: 413,
        body: errorBody(big, {
          code: 413,
          key: 'payload_too_large',
          message: 'Payload too large',
          details: big.body.details,
        }),
      },
    );
    assert.match(big.body.details, /^Request body exceeds \d+ bytes$/);
  });
});
