import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { internalActor } from '../../../src/lib/actor.js';
import { debitGift } from '../../../src/modules/ledgers/gift-ledger.service.js';
import { postgresForTests } from '../../support/postgres.js';
import { errorBody, startTestServer, type TestServer } from '../../support/server.js';
import { sqliteOf } from '../../support/sqlite.js';
import { assertCardMatchesLedger } from './recompute.js';
import { giftCard } from './fixtures.js';

const found = await postgresForTests();

/**
 * PostgreSQL only (READ COMMITTED: SQLite's one writer runs the whole request after the other
 * writer's commit). A debit reads the card, whose balance covers it; its guarded UPDATE waits for
 * another writer's lock on the card, which commits a debit of its own; checked again, the balance
 * no longer covers it: the refusal quotes the balance it was refused at, not the one read before
 * the wait (which was enough).
 */
describe('a balance refusal after waiting for another writer (PostgreSQL)', { skip: found.skip }, () => {
  let server: TestServer;
  let watcher: pg.Client;
  before(async () => {
    const url = await found.server!.migratedDatabase();
    server = await startTestServer({ dbFile: url });
    watcher = new pg.Client(url);
    await watcher.connect();
  });
  after(async () => {
    await watcher.end();
    await server.close();
  });

  /** Resolves once some session of this database waits for a row lock. */
  async function someoneWaitsForALock(): Promise<void> {
    for (let waited = 0; waited < 20_000; waited += 20) {
      const { rows } = await watcher.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail('no request came to wait for the card');
  }

  it('quotes the balance the guarded debit found, after the debit it waited for', async () => {
    const { card } = await giftCard(server, 'Waiting gifts', 'GIFT-WAIT', 1300);
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    // A debit of 300 that holds the card's row until told to commit.
    const other = server.deps.db.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      await debitGift(server.deps, trx, { voucherId: card.id, amount: 300, actor: internalActor(), at });
      await held;
    });
    const debit = server.request('POST', '/v1/vouchers/GIFT-WAIT/balance', { body: { amount: -1200 } });
    await someoneWaitsForALock();
    commit();
    await other;
    const res = await debit;
    assert.deepEqual(
      [res.status, res.body],
      [
        400,
        errorBody(res, {
          code: 400,
          key: 'gift_amount_exceeded',
          message: 'Gift amount exceeded',
          details: 'Cannot take 1200 from gift card GIFT-WAIT: its balance is 1000',
        }),
      ],
    );
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
  });
});
