import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { twoProcesses } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';
import { onPostgres } from '../support/engine.js';

const ENV = { PROMO_APP_ID: 'idempotency-race-app', PROMO_APP_TOKEN: 'idempotency-race-token' };
const KEYS = 160;
const AT_ONCE = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An expired Idempotency-Key under a retry that reaches two `promo serve` processes on one file
 * at once (this test server and a spawned one, the same server key on both): the key is
 * forgotten once and taken again by one of them, so the request runs exactly once and both
 * answers are that run's. Forgetting an expired key is one guarded DELETE (only while it is
 * still the expired row), never a delete of a row that another request has just written.
 */
describe('an expired Idempotency-Key retried in two processes at once', () => {
  const pair = twoProcesses(ENV);

  it('runs the request once per key, both answers the same', async () => {
    const { server, other } = pair;
    const keyHeaders = (key: string) => ({
      'X-App-Id': ENV.PROMO_APP_ID,
      'X-App-Token': ENV.PROMO_APP_TOKEN,
      'Idempotency-Key': key,
    });
    // The spawned server registered the key: this one serves it too.
    assert.equal((await server.request('GET', '/v1/orders', { headers: keyHeaders('') })).status, 200);
    const old = new Date(Date.now() - 2 * DAY_MS).toISOString();
    const insert = sqliteOf(server.deps).prepare(
      "INSERT INTO idempotency_keys (credential, key, request_hash, status, body, created_at) VALUES (?, ?, 'old', 200, '{}', ?)",
    );
    for (let i = 0; i < KEYS; i++) insert.run(`API:${ENV.PROMO_APP_ID}`, `expired-${i}`, old);

    const retry = async (i: number) => {
      const body = { source_id: null, amount: 1000 + i, metadata: { key: i } };
      const here = fetch(`${server.url}/v1/orders`, {
        method: 'POST',
        headers: { ...keyHeaders(`expired-${i}`), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const there = fetch(`${other.url}/v1/orders`, {
        method: 'POST',
        headers: { ...keyHeaders(`expired-${i}`), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return Promise.all(
        [here, there].map(async (r) => ({
          status: (await r).status,
          replayed: (await r).headers.get('idempotent-replayed'),
          text: await (await r).text(),
        })),
      );
    };
    // A few keys at a time: the lost run needs one process's commit between the other's read and its delete.
    const answers = [];
    for (let i = 0; i < KEYS; i += AT_ONCE)
      answers.push(...(await Promise.all(Array.from({ length: AT_ONCE }, (_, k) => retry(i + k)))));
    const orders = sqliteOf(server.deps)
      .prepare(
        // The metadata's key in each engine's JSON words (metadata is JSON text on both).
        `SELECT ${onPostgres() ? "metadata::json ->> 'key'" : "json_extract(metadata, '$.key')"} AS k, count(*) AS n FROM orders GROUP BY k ORDER BY k`,
      )
      .all() as Array<{ k: number; n: number }>;
    assert.deepEqual(
      orders.filter((o) => o.n !== 1),
      [],
      'one order per key',
    );
    assert.equal(orders.length, KEYS);
    for (const [i, pairOfAnswers] of answers.entries()) {
      assert.deepEqual(
        pairOfAnswers.map((a) => a.status),
        [200, 200],
        `key ${i}`,
      );
      assert.equal(pairOfAnswers[0]?.text, pairOfAnswers[1]?.text, `key ${i}: one answer`);
      assert.deepEqual(
        pairOfAnswers.map((a) => a.replayed).sort(),
        ['true', null].sort(),
        `key ${i}: one ran, one replayed`,
      );
    }
    const keys = sqliteOf(server.deps)
      .prepare(
        "SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE 'expired-%' AND created_at > ? AND status = 200",
      )
      .get(old);
    assert.deepEqual(keys, { n: KEYS }, 'every key taken again, answered');
  });
});
