import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { createKey, revokeKey } from '../../src/modules/auth/keys.service.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const START = '2026-05-01T10:00:00.000Z';
const START_SECONDS = Date.parse(START) / 1000;
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('OAuth', () => {
  const clock = fixedClock(START);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const issue = (scope: string, headers?: Record<string, string>) =>
    server.request('POST', '/v1/oauth/token', {
      raw: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
      headers: { ...form, ...headers },
    });
  const introspect = (token: string) =>
    server.request('POST', '/v1/oauth/introspect', { raw: `access_token=${encodeURIComponent(token)}`, headers: form });
  const revoke = (token: string) =>
    server.request('POST', '/v1/oauth/token/revoke', {
      raw: `access_token=${encodeURIComponent(token)}`,
      headers: form,
    });

  const answerOfRevoke = (res: TestResponse) => ({
    status: res.status,
    text: res.text,
    length: res.headers.get('content-length'),
    type: res.headers.get('content-type'),
  });

  it('issues, introspects, opens, revokes, then introspects inactive', async () => {
    const issued = await issue('api');
    assert.equal(issued.status, 200);
    const token = issued.body.access_token;
    assert.match(token, /^[0-9A-Za-z]{48}$/);
    assert.deepEqual(issued.body, {
      access_token: token,
      client_id: server.serverKey.app_id,
      expires_at: START_SECONDS + 900,
      expires_in: 900,
      scope: 'api',
      token_type: 'Bearer',
    });
    assertMatchesReference('POST', '/v1/oauth/token', 200, issued.body);

    clock.advance(100_000);
    const active = await introspect(token);
    assert.equal(active.status, 200);
    assert.deepEqual(active.body, { ...issued.body, expires_in: 800, active: true });
    assertMatchesReference('POST', '/v1/oauth/introspect', 200, active.body);

    const used = await server.request('GET', '/v1/anything', { auth: { bearer: token } });
    assert.equal(used.status, 404, 'the token opens /v1 (an unknown route there is 404, not 401)');

    // RFC 7009 section 2.2: 200 (the reference says 204); the body carries nothing, as before.
    const revoked = await revoke(token);
    assert.deepEqual(answerOfRevoke(revoked), { status: 200, text: '', length: '0', type: null });
    assert.deepEqual((await introspect(token)).body, { active: false });
    const refused = await server.request('GET', '/v1/anything', { auth: { bearer: token } });
    assert.deepEqual(
      refused.body,
      errorBody(refused, {
        code: 401,
        key: 'unauthorized',
        message: 'Unauthorized',
        details: 'Invalid or expired access token',
      }),
    );
    // RFC 7009: revoking a token that is no longer live (or never was) answers as a revocation.
    for (const gone of [token, 'never-issued']) {
      assert.deepEqual(answerOfRevoke(await revoke(gone)), { status: 200, text: '', length: '0', type: null });
    }
  });

  it('lets a token expire after 900 seconds', async () => {
    clock.set(START);
    const token = (await issue('api')).body.access_token;
    clock.advance(899_000);
    assert.equal((await introspect(token)).body.expires_in, 1);
    assert.equal((await server.request('GET', '/v1/anything', { auth: { bearer: token } })).status, 404);
    clock.advance(1_000);
    assert.deepEqual((await introspect(token)).body, { active: false });
    assert.equal((await server.request('GET', '/v1/anything', { auth: { bearer: token } })).status, 401);
    clock.set(START);
  });

  it('answers an unknown token as inactive', async () => {
    const res = await introspect('not-a-token');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { active: false });
  });

  it('accepts several space-separated scopes', async () => {
    const res = await issue('products customers');
    assert.equal(res.status, 200);
    assert.equal(res.body.scope, 'products customers');
  });

  it('refuses commas and unknown scopes with 400 invalid_scope', async () => {
    for (const scope of ['vouchers,campaigns', 'api nonsense']) {
      const res = await issue(scope);
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body,
        errorBody(res, {
          code: 400,
          key: 'invalid_scope',
          message: 'Invalid scope',
          details: `Invalid scope ${scope}: scopes are names from the documented list, separated by spaces (never commas)`,
        }),
      );
    }
  });

  it('refuses another grant type with 400 invalid_grant_type', async () => {
    const res = await server.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=password&scope=api',
      headers: form,
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_grant_type',
        message: 'Invalid grant_type',
        details: 'grant_type must be client_credentials',
      }),
    );
  });

  it('refuses a missing scope and a missing access_token with 400 missing_parameters', async () => {
    const noScope = await server.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials',
      headers: form,
    });
    assert.deepEqual(
      noScope.body,
      errorBody(noScope, {
        code: 400,
        key: 'missing_parameters',
        message: 'Missing parameters',
        details: 'scope is required',
      }),
    );
    const noToken = await server.request('POST', '/v1/oauth/introspect', { raw: '', headers: form });
    assert.deepEqual(
      noToken.body,
      errorBody(noToken, {
        code: 400,
        key: 'missing_parameters',
        message: 'Missing parameters',
        details: 'access_token is required',
      }),
    );
  });

  it('takes only server keys on the OAuth endpoints', async () => {
    const token = (await issue('api')).body.access_token;
    const withBearer = await server.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials&scope=api',
      headers: form,
      auth: { bearer: token },
    });
    assert.deepEqual(
      withBearer.body,
      errorBody(withBearer, {
        code: 401,
        key: 'unauthorized',
        message: 'Unauthorized',
        details: 'Send X-App-Id and X-App-Token',
      }),
    );
    const withClientKey = await server.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials&scope=api',
      headers: form,
      auth: 'client',
    });
    assert.equal(withClientKey.status, 401);
  });

  describe('scopes open exactly their paths', () => {
    const cases: Array<{ scope: string; path: string; open: boolean }> = [
      { scope: 'api', path: '/v1/customers', open: true },
      { scope: 'api', path: '/client/v1/redemptions', open: false },
      { scope: 'products', path: '/v1/products/prod_1/skus', open: true },
      { scope: 'products', path: '/v1/skus/sku_1', open: false },
      { scope: 'products', path: '/v1/product-collections', open: false },
      { scope: 'product-collections', path: '/v1/product-collections', open: true },
      { scope: 'customers', path: '/v1/customers/c/activity', open: true },
      { scope: 'customers orders', path: '/v1/orders/import', open: true },
      { scope: 'async-actions', path: '/v1/async-actions', open: true },
      { scope: 'client_api', path: '/client/v1/redemptions', open: true },
      { scope: 'client_api', path: '/v1/redemptions', open: false },
      { scope: 'client_redemptions', path: '/client/v1/redemptions', open: true },
      { scope: 'client_redemptions', path: '/client/v1/validations', open: false },
      { scope: 'redemptions', path: '/client/v1/redemptions', open: false },
    ];
    for (const { scope, path, open } of cases) {
      it(`${scope} ${open ? 'opens' : 'does not open'} ${path}`, async () => {
        const token = (await issue(scope)).body.access_token;
        const res = await server.request('GET', path, { auth: { bearer: token } });
        if (open) {
          // Past authentication: whatever the route answers, it is not a refusal of the token.
          assert.ok(![401, 403].includes(res.status), `status ${res.status}`);
          return;
        }
        assert.deepEqual(
          res.body,
          errorBody(res, {
            code: 403,
            key: 'missing_required_permission',
            message: 'Missing permission',
            details: `The token's scope (${scope}) does not open ${path}`,
          }),
        );
      });
    }
  });

  it("ends a key's tokens when the key is revoked", async () => {
    const key = await createKey(server.deps, { kind: 'server' });
    const token = (await issue('api', { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token })).body.access_token;
    assert.equal((await introspect(token)).body.active, true);
    await revokeKey(server.deps, key.app_id);
    assert.deepEqual((await introspect(token)).body, { active: false });
    assert.equal((await server.request('GET', '/v1/anything', { auth: { bearer: token } })).status, 401);
  });

  it('stores tokens only as hashes', () => {
    const rows = sqliteOf(server.deps).prepare('SELECT token_hash FROM oauth_tokens').all() as Array<{
      token_hash: string;
    }>;
    assert.ok(rows.length > 0);
    for (const row of rows) assert.match(row.token_hash, /^[0-9a-f]{64}$/);
    const keys = sqliteOf(server.deps).prepare('SELECT token_hash FROM api_keys').all() as Array<{
      token_hash: string;
    }>;
    assert.ok(keys.every((k) => k.token_hash !== server.serverKey.app_token && /^[0-9a-f]{64}$/.test(k.token_hash)));
  });
});
