import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { bootstrapKeys } from '../../src/modules/auth/keys.service.js';
import { MAX_LIVE_TOKENS } from '../../src/modules/auth/oauth.service.js';
import { openDeps } from '../../src/root/create-deps.js';
import type { SpawnedServer } from '../support/cli.js';
import { postgresForTests } from '../support/postgres.js';
import { PAIR_ENV, postgresPair, rowsOf, setupCall, tally, via } from './postgres-pair.js';

const found = await postgresForTests();

/**
 * The paths that count or look up, then insert, on PostgreSQL across two `promo serve` on one
 * database: a program joined by one customer many times at once, a join_once campaign, the
 * live OAuth token limit, and several servers making the first key pair of a new database.
 */
describe('count-then-insert paths on PostgreSQL across two promo serve processes', { skip: found.skip }, () => {
  const pair = postgresPair(() => found.server);
  const send = (i: number, method: string, path: string, body?: unknown) => via(pair, i, method, path, body);
  const rows = <T>(query: ReturnType<typeof sql<T>>) => rowsOf(pair, query);
  const call = (method: string, path: string, body?: unknown) => setupCall(pair, method, path, body);

  it('one customer, existing or new, added to a program 20 times at once holds one card', async () => {
    const program = await call('POST', '/v1/loyalties', {
      name: 'PG members',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    await call('POST', '/v1/customers', { source_id: 'pg-known' });
    for (const source_id of ['pg-known', 'pg-new']) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (pair.servers[i % 2] as SpawnedServer).request('POST', `/v1/loyalties/${program.id}/members`, {
            customer: { source_id },
          }),
        ),
      );
      assert.deepEqual(tally(answers.map((a) => String(a.status))), { '200': 20 }, source_id);
      assert.equal(new Set(answers.map((a) => a.body.code)).size, 1, `${source_id}: one card answered`);
    }
    assert.deepEqual(
      await rows(sql`SELECT c.source_id, count(*) AS n FROM vouchers v JOIN customers c ON c.id = v.holder_id
                     WHERE v.campaign_id = ${program.id} GROUP BY c.source_id ORDER BY c.source_id`),
      [
        { source_id: 'pg-known', n: 1 },
        { source_id: 'pg-new', n: 1 },
      ],
    );
  });

  it('a join_once campaign published 20 times at once to one customer gives one voucher', async () => {
    await call('POST', '/v1/campaigns', {
      name: 'PG once',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'AUTO_UPDATE',
      join_once: true,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    await call('POST', '/v1/customers', { source_id: 'pg-once' });
    const body = { campaign: 'PG once', customer: { source_id: 'pg-once' } };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (pair.servers[i % 2] as SpawnedServer).request('POST', '/v1/publications', body),
      ),
    );
    assert.deepEqual(tally(answers.map((a) => String(a.status))), { '200': 20 });
    assert.equal(new Set(answers.map((a) => a.body.voucher.code)).size, 1, 'one voucher answered');
    assert.deepEqual(
      await rows(sql`SELECT count(*) AS n FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id
                     JOIN customers h ON h.id = v.holder_id WHERE c.name = 'PG once' AND h.source_id = 'pg-once'`),
      [{ n: 1 }],
    );
  });

  it(`lets exactly ${MAX_LIVE_TOKENS} OAuth tokens live under 40 issues at once across both servers`, async () => {
    const expires = Math.floor(Date.now() / 1000) + 900;
    await pair.setup.deps.db
      .insertInto('oauth_tokens')
      .values(
        Array.from({ length: MAX_LIVE_TOKENS - 10 }, () => ({
          token_hash: randomBytes(16).toString('hex'),
          app_id: PAIR_ENV.PROMO_APP_ID,
          scope: 'api',
          created_at: new Date().toISOString(),
          expires_at: expires,
          revoked_at: null,
        })),
      )
      .execute();
    const issue = (server: SpawnedServer) =>
      fetch(`${server.url}/v1/oauth/token`, {
        method: 'POST',
        headers: {
          'X-App-Id': PAIR_ENV.PROMO_APP_ID,
          'X-App-Token': PAIR_ENV.PROMO_APP_TOKEN,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=api',
      }).then(async (r) => `${r.status} ${r.status === 200 ? 'ok' : ((await r.json()) as { key: string }).key}`);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => issue(pair.servers[i % 2] as SpawnedServer)),
    );
    assert.deepEqual(tally(results), { '200 ok': 10, '400 token_limit_reached': 30 });
    assert.deepEqual(await rows(sql`SELECT count(*) AS n FROM oauth_tokens`), [{ n: MAX_LIVE_TOKENS }]);
  });

  it('four servers starting at once on a new database make the first key pair once', async () => {
    for (let round = 0; round < 2; round++) {
      const url = await (found.server as NonNullable<typeof found.server>).migratedDatabase();
      const starts = await Promise.all(Array.from({ length: 4 }, () => openDeps({ dbFile: url, migrate: false })));
      try {
        const created = await Promise.all(starts.map((deps) => bootstrapKeys(deps, {})));
        assert.deepEqual(
          created
            .flat()
            .map((k) => k.kind)
            .sort(),
          ['client', 'server'],
          `round ${round}: ${JSON.stringify(created)}`,
        );
        const stored = await sql<{ kind: string }>`SELECT kind FROM api_keys ORDER BY kind`.execute(starts[0]!.db);
        assert.deepEqual(stored.rows, [{ kind: 'client' }, { kind: 'server' }]);
      } finally {
        for (const deps of starts) await deps.close();
      }
    }
  });
});
