import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { issueToken, MAX_LIVE_TOKENS } from '../../src/modules/auth/oauth.service.js';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

describe('the live OAuth token limit', () => {
  const clock = fixedClock('2026-05-01T10:00:00.000Z');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const issueOverHttp = () =>
    server.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials&scope=api',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });

  it(`lets exactly ${MAX_LIVE_TOKENS} tokens live at once, under concurrent requests`, async () => {
    for (let i = 0; i < MAX_LIVE_TOKENS - 10; i++) {
      await issueToken(server.deps, server.serverKey.app_id, { grant_type: 'client_credentials', scope: 'api' });
    }
    const answers = await Promise.all(Array.from({ length: 40 }, issueOverHttp));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [...Array(10).fill(200), ...Array(30).fill(400)]);
    const refused = answers.find((a) => a.status === 400)!;
    assert.deepEqual(
      refused.body,
      errorBody(refused, {
        code: 400,
        key: 'token_limit_reached',
        message: 'Token limit reached',
        details: `At most ${MAX_LIVE_TOKENS} tokens may be live at once; revoke some or wait for them to expire`,
      }),
    );
    const live = sqliteOf(server.deps).prepare('SELECT count(*) AS n FROM oauth_tokens').get() as { n: number };
    assert.equal(live.n, MAX_LIVE_TOKENS);
  });

  it('frees the slots of expired tokens, and forgets them', async () => {
    clock.advance(900_000);
    const res = await issueOverHttp();
    assert.equal(res.status, 200);
    const stored = sqliteOf(server.deps).prepare('SELECT count(*) AS n FROM oauth_tokens').get() as { n: number };
    assert.equal(stored.n, 1, 'expired tokens are deleted when a new one is issued');
  });
});
