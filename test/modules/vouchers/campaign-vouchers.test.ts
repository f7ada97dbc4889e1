import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Deps } from '../../../src/app/deps.js';
import { createDeps } from '../../../src/root/create-deps.js';
import type { Database } from '../../../src/db/database.js';
import { internalActor } from '../../../src/lib/actor.js';
import { fixedClock } from '../../../src/lib/clock.js';
import {
  deleteCampaignVouchersStep,
  updateCampaignVouchersStep,
} from '../../../src/modules/vouchers/campaign-vouchers.job.js';
import {
  createCampaign,
  deleteCampaign,
  updateCampaign,
  type CampaignRangePayload,
} from '../../../src/modules/vouchers/campaign-vouchers.service.js';
import { addVouchers } from '../../../src/modules/vouchers/voucher-generation.service.js';
import * as repo from '../../../src/modules/vouchers/vouchers.repository.js';
import { freshDbFile } from '../../support/db.js';
import { sqliteOf } from '../../support/sqlite.js';
import { openTestDeps, sqliteOnly } from '../../support/engine.js';

const NOW = '2025-03-01T00:00:00.000Z';
const discountCampaign = (name: string) => ({
  name,
  campaign_type: 'DISCOUNT_COUPONS' as const,
  voucher: { type: 'DISCOUNT_VOUCHER' as const, discount: { type: 'PERCENT', percent_off: 10 } },
});

/** The job a campaign use case just enqueued, as a step sees it before its first portion. */
function lastJob(sqlite: BetterSqlite3.Database) {
  const row = sqlite.prepare('SELECT id, type, payload, total FROM async_actions ORDER BY seq DESC LIMIT 1').get() as {
    id: string;
    type: string;
    payload: string;
    total: number;
  };
  return {
    ...row,
    payload: JSON.parse(row.payload) as CampaignRangePayload,
    cursor: 0,
    done_count: 0,
    failed_count: 0,
  };
}

const seqsOf = (sqlite: BetterSqlite3.Database, campaignId: string): number[] =>
  (
    sqlite.prepare('SELECT seq FROM vouchers WHERE campaign_id = ? ORDER BY seq').all(campaignId) as Array<{
      seq: number;
    }>
  ).map((r) => r.seq);

describe("jobs over a campaign's vouchers walk them by keyset, a portion of the campaign's vouchers at a time", () => {
  let deps: Deps;
  before(async () => {
    deps = await openTestDeps({ clock: fixedClock(NOW) });
  });
  after(() => deps.close());

  /** Runs every portion of the job, `maxItems` vouchers each; returns [cursor, done] per portion. */
  async function runAll(
    step: typeof updateCampaignVouchersStep,
    job: ReturnType<typeof lastJob>,
    maxItems: number,
  ): Promise<Array<[number, number]>> {
    const portions: Array<[number, number]> = [];
    let current = job;
    for (;;) {
      const outcome = await deps.db
        .transaction()
        .execute((trx) => step.run({ trx, engine: deps.engine, now: NOW }, current, maxItems));
      portions.push([outcome.cursor, outcome.done]);
      current = { ...current, cursor: outcome.cursor, done_count: current.done_count + outcome.done };
      if (outcome.finished) return portions;
    }
  }

  it("updates exactly the campaign's vouchers up to the request, ending each portion at its n-th voucher", async () => {
    const actor = internalActor();
    const a = await createCampaign(deps, discountCampaign('Interleaved A'), actor);
    const b = await createCampaign(deps, discountCampaign('Interleaved B'), actor);
    for (let i = 0; i < 10; i++) {
      await addVouchers(deps, a.id, { count: 1, body: {}, actor });
      await addVouchers(deps, b.id, { count: 1, body: {}, actor });
    }
    await updateCampaign(deps, a.id, { discount: { type: 'AMOUNT', amount_off: 500 } }, actor);
    const job = lastJob(sqliteOf(deps));
    await addVouchers(deps, a.id, { count: 1, body: {}, actor }); // after the request: not the job's
    const seqs = seqsOf(sqliteOf(deps), a.id);
    assert.equal(job.type, 'CAMPAIGN.VOUCHERS_UPDATE');
    assert.deepEqual(await runAll(updateCampaignVouchersStep, job, 4), [
      [seqs[3], 4],
      [seqs[7], 4],
      [job.total, 2],
    ]);
    // The late voucher has the new discount from the campaign's template, but the job did not touch it.
    const byCampaign = sqliteOf(deps)
      .prepare(
        'SELECT CASE WHEN campaign_id = ? THEN 1 ELSE 0 END AS in_a, updated_at, discount, count(*) AS n FROM vouchers GROUP BY 1, 2, 3 ORDER BY 1, 2 NULLS FIRST',
      )
      .all(a.id);
    assert.deepEqual(byCampaign, [
      { in_a: 0, updated_at: null, discount: '{"type":"PERCENT","percent_off":10}', n: 10 },
      { in_a: 1, updated_at: null, discount: '{"type":"AMOUNT","amount_off":500}', n: 1 },
      { in_a: 1, updated_at: NOW, discount: '{"type":"AMOUNT","amount_off":500}', n: 10 },
    ]);

    await deleteCampaign(deps, a.id, actor);
    const doomed = lastJob(sqliteOf(deps));
    assert.equal(doomed.type, 'CAMPAIGN.VOUCHERS_DELETE');
    assert.deepEqual(await runAll(deleteCampaignVouchersStep, doomed, 4), [
      [seqs[3], 4],
      [seqs[7], 4],
      [doomed.total, 3],
    ]);
    assert.deepEqual([seqsOf(sqliteOf(deps), a.id).length, seqsOf(sqliteOf(deps), b.id).length], [0, 10]);
  });
});

describe(
  "the statements of those jobs read the campaign's range of vouchers_campaign_seq (EXPLAIN QUERY PLAN)",
  sqliteOnly('EXPLAIN QUERY PLAN of SQLite'),
  () => {
    let deps: Deps;
    before(() => {
      deps = createDeps({ dbFile: freshDbFile(), clock: fixedClock(NOW) });
    });
    after(() => deps.close());

    /** The SQL and parameters the repository functions run, captured from Kysely's log. */
    async function statements(): Promise<CompiledQuery[]> {
      const captured: CompiledQuery[] = [];
      const db = new Kysely<Database>({
        dialect: new SqliteDialect({ database: sqliteOf(deps) }),
        log: (event) => void captured.push(event.query),
      });
      await repo.findNthCampaignVoucherSeq(db, 'camp_x', 100, 5000, 1000);
      await repo.updateCampaignVouchersInRange(db, 'camp_x', 100, 5000, { discount: '{}', updated_at: NOW });
      await repo.deleteCampaignVouchersInRange(db, 'camp_x', 100, 5000);
      return captured;
    }

    const plans = async (): Promise<string[]> =>
      (await statements()).map((q) =>
        (
          sqliteOf(deps)
            .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
            .all(...q.parameters) as Array<{ detail: string }>
        )
          .map((r) => r.detail)
          .join(' | '),
      );

    const expected = [
      'SEARCH vouchers USING COVERING INDEX vouchers_campaign_seq (campaign_id=? AND seq>? AND seq<?)',
      'SEARCH vouchers USING INDEX vouchers_campaign_seq (campaign_id=? AND seq>? AND seq<?)',
      // The delete cascades to the loyalty tables that reference a card, each read through an index.
      [
        'SEARCH vouchers USING COVERING INDEX vouchers_campaign_seq (campaign_id=? AND seq>? AND seq<?)',
        'SEARCH loyalty_pending_points USING COVERING INDEX loyalty_pending_points_voucher (voucher_id=?)',
        'SEARCH loyalty_member_tiers USING COVERING INDEX sqlite_autoindex_loyalty_member_tiers_1 (voucher_id=?)',
      ].join(' | '),
    ];

    it('without statistics (promo never runs ANALYZE), where vouchers_campaign used to win', async () => {
      assert.deepEqual(await plans(), expected);
    });

    it('with the statistics of 3,300,000 vouchers in three campaigns of 1,100,000', async () => {
      sqliteOf(deps).exec('ANALYZE');
      sqliteOf(deps).exec("DELETE FROM sqlite_stat1 WHERE tbl = 'vouchers'");
      const indexes = sqliteOf(deps)
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'vouchers'")
        .all() as Array<{ name: string }>;
      const insert = sqliteOf(deps).prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('vouchers', ?, ?)");
      for (const { name } of indexes)
        insert.run(name, name.startsWith('vouchers_campaign') ? '3300000 1100000 1' : '3300000 1');
      sqliteOf(deps).exec('ANALYZE sqlite_schema'); // loads the statistics into the planner
      assert.deepEqual(await plans(), expected);
    });
  },
);
