import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discountCampaign } from '../support/factories.js';
import { twoProcesses } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'publications-race-app', PROMO_APP_TOKEN: 'publications-race-token' };
const VOUCHERS = 30;
const CUSTOMERS = 40;

/**
 * Publications from one STATIC campaign through two `promo serve` processes on one file at
 * once: more customers than vouchers. Every voucher goes to exactly one customer, each
 * customer gets at most one, and the customers left over are refused and recorded as failed.
 */
describe('publishing from one campaign in two processes at once', () => {
  const pair = twoProcesses(ENV);

  it('never hands one voucher to two customers', async () => {
    const { server, other } = pair;
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Race', { type: 'STATIC' }) });
    for (let i = 0; i < VOUCHERS; i++)
      await server.request('POST', '/v1/campaigns/Race/vouchers', { body: { code: `RACE-${i}` } });
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `racer-${i}`);
    const answers = await Promise.all(
      customers.map((source_id, i) => {
        const body = { campaign: 'Race', customer: { source_id } };
        return i % 2 === 0
          ? server.request('POST', '/v1/publications', { body }).then((r) => ({ status: r.status, body: r.body }))
          : other.request('POST', '/v1/publications', body);
      }),
    );
    const won = answers.filter((a) => a.status === 200);
    assert.equal(won.length, VOUCHERS);
    assert.deepEqual(
      new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.key}`)),
      new Set(['400 no_voucher_suitable_for_publication']),
    );
    assert.equal(new Set(won.map((a) => a.body.voucher.code)).size, VOUCHERS, 'no code answered twice');

    const vouchers = sqliteOf(server.deps)
      .prepare(
        'SELECT v.code, v.publish_count, c.source_id FROM vouchers v LEFT JOIN customers c ON c.id = v.holder_id ORDER BY v.seq',
      )
      .all() as Array<{ code: string; publish_count: number; source_id: string | null }>;
    assert.equal(vouchers.length, VOUCHERS, 'a STATIC campaign makes no new voucher');
    assert.ok(
      vouchers.every((v) => v.publish_count === 1 && v.source_id !== null),
      'each voucher published once, to a holder',
    );
    assert.equal(new Set(vouchers.map((v) => v.source_id)).size, VOUCHERS, 'no customer holds two');
    for (const answer of won)
      assert.equal(vouchers.find((v) => v.code === answer.body.voucher.code)?.source_id, answer.body.tracking_id);

    const rows = sqliteOf(server.deps)
      .prepare('SELECT result, count(*) AS n FROM publications GROUP BY result ORDER BY result')
      .all();
    assert.deepEqual(rows, [
      { result: 'FAILURE', n: CUSTOMERS - VOUCHERS },
      { result: 'SUCCESS', n: VOUCHERS },
    ]);
  });

  it('gives a join_once customer sent to both processes one voucher, answered by both', async () => {
    const { server, other } = pair;
    await server.request('POST', '/v1/campaigns', {
      body: discountCampaign('Once', { join_once: true, type: 'AUTO_UPDATE' }),
    });
    const customers = Array.from({ length: 10 }, (_, i) => `once-${i}`);
    const answers = await Promise.all(
      customers.flatMap((source_id) => {
        const body = { campaign: 'Once', customer: { source_id } };
        return [
          server.request('POST', '/v1/publications', { body }).then((r) => ({ status: r.status, body: r.body })),
          other.request('POST', '/v1/publications', body),
        ];
      }),
    );
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    for (let i = 0; i < customers.length; i++)
      assert.equal(answers[2 * i]?.body.id, answers[2 * i + 1]?.body.id, customers[i]);
    const held = sqliteOf(server.deps)
      .prepare(
        "SELECT count(*) AS n, count(DISTINCT holder_id) AS holders FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = 'Once'",
      )
      .get();
    assert.deepEqual(held, { n: customers.length, holders: customers.length });
  });

  it('gives each publication of 3 vouchers all of them or none, never sharing one', async () => {
    const { server, other } = pair;
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Triples', { type: 'STATIC' }) });
    for (let i = 0; i < 20; i++)
      await server.request('POST', '/v1/campaigns/Triples/vouchers', { body: { code: `TRIPLE-${i}` } });
    const customers = Array.from({ length: 10 }, (_, i) => `triple-${i}`);
    const answers = await Promise.all(
      customers.map((source_id, i) => {
        const body = { campaign: { name: 'Triples', count: 3 }, customer: { source_id } };
        return i % 2 === 0
          ? server.request('POST', '/v1/publications', { body }).then((r) => ({ status: r.status, body: r.body }))
          : other.request('POST', '/v1/publications', body);
      }),
    );
    const won = answers.filter((a) => a.status === 200);
    assert.equal(won.length, 6, '20 vouchers make 6 whole publications of 3');
    assert.ok(won.every((a) => a.body.vouchers.length === 3));
    assert.equal(new Set(won.flatMap((a) => a.body.vouchers)).size, 18, 'no code answered twice');
    const held = sqliteOf(server.deps)
      .prepare(
        "SELECT c.source_id, count(*) AS n FROM vouchers v JOIN customers c ON c.id = v.holder_id WHERE v.code LIKE 'TRIPLE-%' GROUP BY c.source_id ORDER BY c.source_id",
      )
      .all();
    assert.deepEqual(
      held,
      won.map((a) => ({ source_id: a.body.tracking_id, n: 3 })).sort((a, b) => a.source_id.localeCompare(b.source_id)),
    );
    const free = sqliteOf(server.deps)
      .prepare(
        "SELECT count(*) AS n FROM vouchers WHERE code LIKE 'TRIPLE-%' AND holder_id IS NULL AND publish_count = 0",
      )
      .get();
    assert.deepEqual(free, { n: 2 }, 'the refused publications gave back what they had claimed');
  });
});
