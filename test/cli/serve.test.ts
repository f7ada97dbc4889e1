import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, spawnServe } from '../support/cli.js';
import { tempDir } from '../support/db.js';
import { emptyDatabase, freshDatabase } from '../support/engine.js';

describe('promo serve', () => {
  it('prints exactly `listening on http://HOST:PORT` first, answers, and exits 0 on SIGTERM', async () => {
    const db = await freshDatabase();
    const server = await spawnServe(['--db', db]);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/health`);
    assert.deepEqual(await res.json(), { status: 'ok' });
    assert.equal(await server.stop('SIGTERM'), 0);
  });

  it('exits 0 on SIGINT too', async () => {
    const server = await spawnServe(['--db', await freshDatabase()]);
    assert.equal(await server.stop('SIGINT'), 0);
  });

  it('finishes a request in flight before exiting', async () => {
    const env = { PROMO_DB: await freshDatabase(), PROMO_APP_ID: 'app', PROMO_APP_TOKEN: 'secret' };
    const server = await spawnServe([], env);
    const { request } = await import('node:http');
    // The body arrives in two halves with SIGTERM between them: the answer must still come.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}/v1/oauth/introspect`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-App-Id': 'app', 'X-App-Token': 'secret' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('{"access_token":');
      setTimeout(() => server.child.kill('SIGTERM'), 100);
      setTimeout(() => req.end('"nope"}'), 400);
    });
    assert.deepEqual(await answer, { status: 200, body: '{"active":false}' });
    assert.equal(await server.exited, 0);
  });

  it('creates one server and one client key on first run and prints them once to stderr', async () => {
    const db = await emptyDatabase(() => join(tempDir(), 'first.db'));
    const first = await spawnServe(['--db', db]);
    await first.stop();
    const printed = first.stderr();
    const server = /X-App-Id: (\S+)\s+X-App-Token: (\S+)/.exec(printed);
    const client = /X-Client-Application-Id: (\S+)\s+X-Client-Token: (\S+)/.exec(printed);
    assert.ok(server && client, printed);

    const second = await spawnServe(['--db', db]);
    const res = await fetch(`${second.url}/v1/anything`, {
      headers: { 'X-App-Id': server[1]!, 'X-App-Token': server[2]! },
    });
    assert.equal(res.status, 404, 'the printed server key works');
    const clientRes = await fetch(`${second.url}/client/v1/anything`, {
      headers: { 'X-Client-Application-Id': client[1]!, 'X-Client-Token': client[2]!, origin: 'https://x.example' },
    });
    assert.equal(clientRes.status, 404, 'the printed client key works');
    await second.stop();
    assert.doesNotMatch(second.stderr(), /X-App-Token/, 'keys are printed only once');
  });

  it('registers keys from the environment and creates none', async () => {
    const env = {
      PROMO_DB: await freshDatabase(),
      PROMO_APP_ID: 'env-app',
      PROMO_APP_TOKEN: 'env-secret',
      PROMO_CLIENT_APP_ID: 'env-client',
      PROMO_CLIENT_TOKEN: 'env-client-secret',
      PROMO_CLIENT_ORIGINS: 'https://a.example, https://b.example',
    };
    const server = await spawnServe([], env);
    const ok = await fetch(`${server.url}/v1/anything`, {
      headers: { 'X-App-Id': 'env-app', 'X-App-Token': 'env-secret' },
    });
    assert.equal(ok.status, 404);
    const clientHeaders = { 'X-Client-Application-Id': 'env-client', 'X-Client-Token': 'env-client-secret' };
    assert.equal(
      (await fetch(`${server.url}/client/v1/x`, { headers: { ...clientHeaders, origin: 'https://b.example' } })).status,
      404,
    );
    assert.equal(
      (await fetch(`${server.url}/client/v1/x`, { headers: { ...clientHeaders, origin: 'https://c.example' } })).status,
      403,
    );
    await server.stop();
    assert.doesNotMatch(server.stderr(), /created these/);
    const list = await runCli(['keys', 'list', '--json'], { env: { PROMO_DB: env.PROMO_DB } });
    const ids = (JSON.parse(list.stdout) as Array<{ app_id: string }>).map((k) => k.app_id);
    assert.deepEqual(ids.sort(), ['env-app', 'env-client']);
  });

  it('takes PROMO_HOST and PROMO_PORT from the environment', async () => {
    const probe = await spawnServe(['--db', await freshDatabase()]);
    const port = new URL(probe.url).port;
    await probe.stop();
    const child = await runCliUntilListening({
      PROMO_DB: await freshDatabase(),
      PROMO_HOST: '127.0.0.1',
      PROMO_PORT: port,
    });
    assert.equal(child, `listening on http://127.0.0.1:${port}`);
  });

  it('says what to do when the port is taken, and exits 1', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const res = await runCli(['serve', '--port', String(port), '--db', await freshDatabase()], {
        env: { PROMO_APP_ID: 'taken-app', PROMO_APP_TOKEN: 'taken-token' },
      });
      assert.deepEqual(res, {
        code: 1,
        stdout: '',
        stderr: `error: port ${port} on 127.0.0.1 is already in use by another program (another promo serve?); stop it, or choose another port with --port or PROMO_PORT (0 picks a free one)\n`,
      });
    } finally {
      taken.close();
    }
  });

  it('refuses a bad port with exit 2', async () => {
    const res = await runCli(['serve', '--port', 'eighty', '--db', await freshDatabase()]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /Invalid port: eighty/);
  });
});

/** Starts serve without --port so the environment decides, and returns its first line. */
async function runCliUntilListening(env: Record<string, string>): Promise<string> {
  const { spawn } = await import('node:child_process');
  const { PROMO_BIN } = await import('../support/cli.js');
  const child = spawn(process.execPath, [PROMO_BIN, 'serve'], { env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0] as string);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}`)));
  });
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return line;
}
