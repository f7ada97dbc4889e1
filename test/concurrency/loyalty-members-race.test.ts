import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'members-race-app', PROMO_APP_TOKEN: 'members-race-token' };
const FREE_CARDS = 20;
const CUSTOMERS = 40;

/**
 * Members added at once through two `promo serve` processes on one file: every customer is
 * sent to both at the same time. Each customer ends with exactly one card, no card goes to
 * two customers, the free cards go first (each claimed once), and the rest are made new.
 */
describe('adding loyalty members from two processes at once', () => {
  let server: TestServer;
  let other: SpawnedServer;
  before(async () => {
    server = await startTestServer();
    other = await spawnServe(['--db', server.dbFile], ENV);
  });
  after(async () => {
    await other.stop('SIGTERM');
    await server.close();
  });

  const addViaOther = (body: unknown) =>
    other.request<{ code: string; holder_id: string }>('POST', '/v1/loyalties/Race/members', body);

  it('never gives one card to two customers, nor two cards to one', async () => {
    await server.request('POST', '/v1/loyalties', { body: { name: 'Race', voucher: { loyalty_card: { points: 7 } } } });
    for (let i = 0; i < FREE_CARDS; i++)
      await server.request('POST', '/v1/campaigns/Race/vouchers', { body: { code: `FREE-${i}` } });
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `racer-${i}`);
    const answers = await Promise.all(
      customers.flatMap((source_id) => {
        const body = { customer: { source_id } };
        return [
          server
            .request('POST', '/v1/loyalties/Race/members', { body })
            .then((r) => ({ status: r.status, body: r.body })),
          addViaOther(body),
        ];
      }),
    );
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    // Both processes answered each customer with the same card.
    for (let i = 0; i < CUSTOMERS; i++)
      assert.equal(answers[2 * i]?.body.code, answers[2 * i + 1]?.body.code, customers[i]);

    const cards = sqliteOf(server.deps)
      .prepare(
        'SELECT v.code, v.holder_id, v.publish_count, c.source_id FROM vouchers v LEFT JOIN customers c ON c.id = v.holder_id',
      )
      .all() as Array<{ code: string; holder_id: string | null; publish_count: number; source_id: string | null }>;
    assert.equal(cards.length, CUSTOMERS, 'the free cards, then one new card per customer left');
    assert.deepEqual(new Set(cards.map((c) => c.source_id)), new Set(customers), 'every customer holds a card');
    assert.ok(
      cards.every((c) => c.publish_count === 1),
      'each card was published once',
    );
    assert.equal(cards.filter((c) => c.code.startsWith('FREE-')).length, FREE_CARDS, 'every free card was claimed');
    const holders = new Map(cards.map((c) => [c.code, c.source_id]));
    for (let i = 0; i < CUSTOMERS; i++) assert.equal(holders.get(answers[2 * i]?.body.code ?? ''), customers[i]);

    const program = (await server.request('GET', '/v1/loyalties/Race')).body;
    assert.equal(program.vouchers_count, CUSTOMERS);
    const points = sqliteOf(server.deps).prepare('SELECT sum(loyalty_points) AS n FROM customers').get() as {
      n: number;
    };
    assert.equal(points.n, 7 * CUSTOMERS, "each customer gained its card's points once");
  });
});
