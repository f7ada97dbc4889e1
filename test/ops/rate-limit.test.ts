import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sdk from '@voucherify/sdk';
import { createKey, type CreatedKey } from '../../src/modules/auth/keys.service.js';
import { runCli } from '../support/cli.js';
import { freshDatabase } from '../support/engine.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';

const budgetHeaders = (res: TestResponse) =>
  ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-type', 'retry-after'].map((name) =>
    res.headers.get(name),
  );

const retryAt = (res: TestResponse): number => Number(res.headers.get('x-rate-limit-retry'));

describe('rate limits per key', () => {
  let server: TestServer;
  let limited: CreatedKey;
  const asLimited = { 'X-App-Id': '', 'X-App-Token': '' };
  before(async () => {
    server = await startTestServer();
    limited = await createKey(server.deps, { kind: 'server', name: 'three a minute', rateLimit: 3 });
    Object.assign(asLimited, { 'X-App-Id': limited.app_id, 'X-App-Token': limited.app_token });
  });
  after(() => server.close());

  it('answers a budgeted key with its budget, then 429 with Retry-After and the reference message, and changes nothing', async () => {
    const seen: Array<Array<string | null>> = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.request('POST', '/v1/customers', {
        auth: 'none',
        headers: asLimited,
        body: { source_id: `budget-${i}` },
      });
      assert.equal(res.status, 200);
      seen.push(budgetHeaders(res));
      const nowSeconds = Date.now() / 1000;
      assert.ok(retryAt(res) > nowSeconds && retryAt(res) <= nowSeconds + 61, String(retryAt(res)));
    }
    assert.deepEqual(seen, [
      ['3', '2', 'api_calls', null],
      ['3', '1', 'api_calls', null],
      ['3', '0', 'api_calls', null],
    ]);

    const refused = await server.request('POST', '/v1/customers', {
      auth: 'none',
      headers: asLimited,
      body: { source_id: 'budget-over' },
    });
    assert.equal(refused.status, 429);
    const [limit, remaining, type, retryAfter] = budgetHeaders(refused);
    assert.deepEqual([limit, remaining, type], ['3', '0', 'api_calls']);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, String(retryAfter));
    assert.deepEqual(refused.body, {
      code: 429,
      key: 'too_many_requests',
      message: 'Too many requests hit the API too quickly.',
      details: `This key may make 3 requests a minute; try again in ${retryAfter} s`,
      request_id: refused.headers.get('x-request-id'),
    });
    assert.equal((await server.request('GET', '/v1/customers/budget-over')).status, 404);
  });

  it("charges an OAuth token to its key's budget", async () => {
    const key = await createKey(server.deps, { kind: 'server', name: 'two a minute', rateLimit: 2 });
    const form = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-App-Id': key.app_id,
      'X-App-Token': key.app_token,
    };
    const token = await server.request('POST', '/v1/oauth/token', {
      auth: 'none',
      headers: form,
      raw: 'grant_type=client_credentials&scope=api',
    });
    assert.equal(token.status, 200);
    assert.deepEqual(budgetHeaders(token).slice(0, 2), ['2', '1']);
    const bearer = { bearer: token.body.access_token as string };
    assert.deepEqual(budgetHeaders(await server.request('GET', '/v1/customers', { auth: bearer })).slice(0, 2), [
      '2',
      '0',
    ]);
    assert.equal((await server.request('GET', '/v1/customers', { auth: bearer })).status, 429);
  });

  it('leaves keys without a budget unlimited and without budget headers when the server has no default', async () => {
    const res = await server.request('GET', '/v1/customers');
    assert.equal(res.status, 200);
    assert.deepEqual(budgetHeaders(res), [null, null, null, null]);
  });

  it('gives the official client the figures it reads, and its error the 429', async () => {
    const key = await createKey(server.deps, { kind: 'server', name: 'two for the client', rateLimit: 2 });
    const client = sdk.VoucherifyServerSide({
      applicationId: key.app_id,
      secretKey: key.app_token,
      apiUrl: server.url,
    });
    await client.customers.list({});
    // The client records the headers of answers that succeed.
    assert.deepEqual([client.apiLimitsHandler.getRateLimit(), client.apiLimitsHandler.getRateLimitRemaining()], [2, 1]);
    await client.customers.list({});
    assert.equal(client.apiLimitsHandler.getRateLimitRemaining(), 0);
    await assert.rejects(
      client.customers.list({}),
      (error: { code: number; key: string; message: string }) =>
        error.code === 429 &&
        error.key === 'too_many_requests' &&
        error.message === 'Too many requests hit the API too quickly.',
    );
  });
});

describe('the server-wide default budget', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ rateLimit: 2 });
  });
  after(() => server.close());

  it('applies PROMO_RATE_LIMIT to client keys and server keys without their own', async () => {
    const client = await server.request('POST', '/client/v1/unknown-path', { auth: 'client', body: {} });
    assert.deepEqual(budgetHeaders(client).slice(0, 2), ['2', '1']);
    assert.deepEqual(budgetHeaders(await server.request('GET', '/v1/customers')).slice(0, 2), ['2', '1']);
    assert.equal((await server.request('GET', '/v1/customers')).status, 200);
    assert.equal((await server.request('GET', '/v1/customers')).status, 429);
    assert.equal((await server.request('GET', '/health', { auth: 'none' })).status, 200);
  });
});

describe('promo keys create --rate-limit', () => {
  it('stores the budget and lists it', async () => {
    const file = await freshDatabase();
    const created = await runCli(['keys', 'create', '--rate-limit', '120', '--name', 'shop', '--db', file, '--json']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal((JSON.parse(created.stdout) as { rate_limit: number }).rate_limit, 120);
    const listed = await runCli(['keys', 'list', '--db', file]);
    assert.match(
      listed.stdout,
      /^APP ID\s+KIND\s+STATE\s+ORIGINS\s+PER MINUTE\s+CREATED\s+NAME\n\S+\s+server\s+active\s+\*\s+120\s+\S+\s+shop\n$/,
    );
    const bad = await runCli(['keys', 'create', '--rate-limit', '0', '--db', file]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /rate-limit|rateLimit/);
  });
});
