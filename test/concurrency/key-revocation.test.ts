import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeKey } from '../../src/modules/auth/keys.service.js';
import { runCli, spawnServe } from '../support/cli.js';
import { errorBody, startTestServer, type TestResponse, type TestServer } from '../support/server.js';

/**
 * Authentication reads keys from an in-memory map (modules/auth/keys.cache.ts, docs/performance.md "Hot
 * paths"). Whatever changes a key, in this process or another one on the same file, shows in
 * the very next request: no request after `promo keys revoke` returns is served with the
 * revoked key, and a key whose secret another process replaced answers to the new secret only.
 * OAuth bearer tokens come from the same map: a token revoked by another process, or whose key
 * another process revoked, is refused by the very next request.
 */
describe('keys in memory, changed by another process', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    const voucher = await server.request('POST', '/v1/vouchers/REVOKE-1', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    });
    assert.equal(voucher.status, 200, voucher.text);
  });
  after(() => server.close());

  const unauthorized = (res: TestResponse, details: string) => {
    assert.deepEqual(
      { status: res.status, body: res.body },
      { status: 401, body: errorBody(res, { code: 401, key: 'unauthorized', message: 'Unauthorized', details }) },
    );
  };
  const cli = async (args: string[]) => {
    const res = await runCli([...args, '--db', server.dbFile, '--json']);
    assert.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout);
  };
  const readWith = (appId: string, token: string) =>
    server.request('GET', '/v1/vouchers/REVOKE-1', {
      auth: 'none',
      headers: { 'X-App-Id': appId, 'X-App-Token': token },
    });

  it('refuses the next request after `promo keys revoke` in another process', async () => {
    const key = await cli(['keys', 'create', '--name', 'to revoke']);
    for (let i = 0; i < 3; i++) assert.equal((await readWith(key.app_id, key.app_token)).status, 200);
    await cli(['keys', 'revoke', key.app_id]);
    unauthorized(await readWith(key.app_id, key.app_token), 'Invalid X-App-Id or X-App-Token');
  });

  it('serves a key row changed by another process with its new state at once', async () => {
    const env = { PROMO_APP_ID: 'from-env', PROMO_APP_TOKEN: 'first-token' };
    const first = await spawnServe(['--db', server.dbFile], env);
    await first.stop('SIGTERM');
    assert.equal((await readWith('from-env', 'first-token')).status, 200);
    unauthorized(await readWith('from-env', 'second-token'), 'Invalid X-App-Id or X-App-Token');
    // Another `serve` registers the same id with a new secret: the cached row is stale.
    const second = await spawnServe(['--db', server.dbFile], { ...env, PROMO_APP_TOKEN: 'second-token' });
    await second.stop('SIGTERM');
    unauthorized(await readWith('from-env', 'first-token'), 'Invalid X-App-Id or X-App-Token');
    const res = await readWith('from-env', 'second-token');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.code, 'REVOKE-1');
  });

  const readWithBearer = (token: string) => server.request('GET', '/v1/vouchers/REVOKE-1', { auth: { bearer: token } });
  const bearerRefused = (res: TestResponse) => unauthorized(res, 'Invalid or expired access token');

  it('refuses the next request with a token another process revoked', async () => {
    const key = await cli(['keys', 'create', '--name', 'token holder']);
    const token = (await cli(['token', '--app-id', key.app_id])).access_token as string;
    const other = (await cli(['token', '--app-id', key.app_id])).access_token as string;
    for (let i = 0; i < 3; i++) assert.equal((await readWithBearer(token)).status, 200);
    assert.equal((await readWithBearer(other)).status, 200);
    // Another `serve` on the same file revokes the token through its API.
    const env = { PROMO_APP_ID: 'revoker', PROMO_APP_TOKEN: 'revoker-token' };
    const revoker = await spawnServe(['--db', server.dbFile], env);
    try {
      const res = await fetch(`${revoker.url}/v1/oauth/token/revoke`, {
        method: 'POST',
        headers: { 'X-App-Id': 'revoker', 'X-App-Token': 'revoker-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ access_token: token }),
      });
      assert.deepEqual([res.status, await res.text()], [200, '']);
    } finally {
      await revoker.stop('SIGTERM');
    }
    bearerRefused(await readWithBearer(token));
    assert.equal((await readWithBearer(other)).status, 200);
    // `promo keys revoke` in another process ends the key's other token too.
    await cli(['keys', 'revoke', key.app_id]);
    bearerRefused(await readWithBearer(other));
  });

  it('refuses the next request after a revocation in this process, on both sides', async () => {
    const client = {
      auth: 'client' as const,
      body: { redeemables: [{ object: 'voucher', id: 'REVOKE-1' }], order: { amount: 1000 } },
    };
    assert.equal((await server.request('POST', '/client/v1/validations', client)).status, 200);
    assert.equal((await server.request('GET', '/v1/vouchers/REVOKE-1')).status, 200);
    await revokeKey(server.deps, server.clientKey.app_id);
    await revokeKey(server.deps, server.serverKey.app_id);
    unauthorized(
      await server.request('POST', '/client/v1/validations', client),
      'Invalid X-Client-Application-Id or X-Client-Token',
    );
    unauthorized(await server.request('GET', '/v1/vouchers/REVOKE-1'), 'Invalid X-App-Id or X-App-Token');
  });
});
