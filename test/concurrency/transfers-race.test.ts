import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertCardMatchesLedger } from '../modules/ledgers/recompute.js';
import { alternately, twoProcesses, type Answer } from '../support/two-processes.js';
import { sqliteOf } from '../support/sqlite.js';

const ENV = { PROMO_APP_ID: 'transfers-race-app', PROMO_APP_TOKEN: 'transfers-race-token' };
const START = 300;

/**
 * Points transfers between cards under concurrent requests through two `promo serve` processes
 * on one file: transfers in every direction among three cards, some with two sources (all or
 * nothing), and repeats of one source_id. No card overdraws, no point is made or lost, every
 * TRANSFER_OUT has its TRANSFER_IN, and a source_id moves points once.
 */
describe('points transfers across two processes', () => {
  const pair = twoProcesses(ENV);

  const send = (i: number, path: string, body: unknown): Promise<Answer> => alternately(pair, i, 'POST', path, body);
  const all = <T>(sql: string, ...params: unknown[]): T[] =>
    sqliteOf(pair.server.deps)
      .prepare(sql)
      .all(...params) as T[];

  it('conserves points, never overdraws, pairs every move, and moves a source_id once', async () => {
    const { server } = pair;
    const program = (
      await server.request('POST', '/v1/loyalties', {
        body: { name: 'Transfer race', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
      })
    ).body;
    const cards: Array<{ id: string; code: string }> = [];
    // ann, bob and cat move points around; dan only gives the keyed move, so no other move can
    // have drained him when it runs (a drained source refuses it, and a later repeat makes it).
    for (const who of ['ann', 'bob', 'cat', 'dan']) {
      const card = (
        await server.request('POST', `/v1/loyalties/${program.id}/members`, {
          body: { customer: { source_id: `transfer-${who}` } },
        })
      ).body;
      assert.equal(
        (await server.request('POST', `/v1/loyalties/members/${card.code}/balance`, { body: { points: START } }))
          .status,
        200,
      );
      cards.push({ id: card.id, code: card.code });
    }
    const code = (k: number) => (cards[k % 3] as { code: string }).code;
    const path = (k: number) => `/v1/loyalties/${program.id}/members/${code(k)}/transfers`;
    // 60 single moves of 70 around the triangle, 20 moves of 50 from both other cards at once,
    // and 10 repeats of one keyed move of 25 from dan to ann.
    const singles = Array.from({ length: 60 }, (_, i) =>
      send(i, path(i), [{ code: code(i + 1 + (i % 2)), points: 70 }]),
    );
    const doubles = Array.from({ length: 20 }, (_, i) =>
      send(i + 1, path(i), [
        { code: code(i + 1), points: 50 },
        { code: code(i + 2), points: 50 },
      ]),
    );
    const keyed = Array.from({ length: 10 }, (_, i) =>
      send(i, path(0), [{ code: (cards[3] as { code: string }).code, points: 25, source_id: 'keyed-move' }]),
    );
    const answers = await Promise.all([...singles, ...doubles, ...keyed]);

    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.status, 400, JSON.stringify(a.body));
      assert.equal(a.body.key, 'loyalty_card_points_exceeded', JSON.stringify(a.body));
    }
    assert.deepEqual(
      answers.slice(80).map((a) => a.status),
      Array(10).fill(200),
      'a keyed move that was made answers as made',
    );
    const movedSingles = answers.slice(0, 60).filter((a) => a.status === 200).length;
    const movedDoubles = answers.slice(60, 80).filter((a) => a.status === 200).length;
    assert.ok(movedSingles > 0 && movedDoubles > 0, `${movedSingles} singles and ${movedDoubles} doubles moved`);

    const ids = cards.map((c) => c.id);
    const rows = all<{
      id: string;
      type: string;
      delta: number;
      related_transaction_id: string | null;
      source_id: string | null;
    }>(
      `SELECT id, type, delta, related_transaction_id, source_id FROM ledger_entries WHERE voucher_id IN (?, ?, ?, ?) AND type LIKE 'POINTS_TRANSFER_%' ORDER BY seq`,
      ...ids,
    );
    const outs = rows.filter((r) => r.type === 'POINTS_TRANSFER_OUT');
    const ins = rows.filter((r) => r.type === 'POINTS_TRANSFER_IN');
    assert.equal(outs.length, movedSingles + 2 * movedDoubles + 1, 'one OUT per move made, the keyed one once');
    assert.equal(outs.filter((r) => r.source_id === 'keyed-move').length, 1);
    assert.equal(ins.length, outs.length);
    for (const into of ins) {
      const out = outs.find((o) => o.id === into.related_transaction_id);
      assert.ok(out, `${into.id} names its OUT`);
      assert.deepEqual([out.related_transaction_id, out.delta], [into.id, -into.delta]);
    }
    const balances = all<{ loyalty_balance: number }>(
      'SELECT loyalty_balance FROM vouchers WHERE id IN (?, ?, ?, ?)',
      ...ids,
    );
    assert.equal(
      balances.reduce((sum, b) => sum + b.loyalty_balance, 0),
      4 * START,
      'no point made or lost',
    );
    for (const id of ids) assertCardMatchesLedger(sqliteOf(server.deps), id);
  });
});
