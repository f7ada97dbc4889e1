import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CompiledQuery } from 'kysely';
import { createLogger } from '../../../src/app/logger.js';
import type { Deps } from '../../../src/app/deps.js';
import { createDeps } from '../../../src/root/create-deps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { createCustomer } from '../../../src/modules/customers/customers.service.js';
import { listQualifyingStackKeys, listQualifyingTierKeys } from '../../../src/modules/campaigns/index.js';
import { checkEligibility } from '../../../src/modules/qualifications/qualifications.service.js';
import { listQualifyingVoucherKeys } from '../../../src/modules/vouchers/index.js';
import { freshDbFile } from '../../support/db.js';
import { explain, planProblems, recordingKysely, writeStatistics } from '../../support/query-plans.js';
import { sqliteOf } from '../../support/sqlite.js';
import { sqliteOnly } from '../../support/engine.js';

/**
 * A qualification reads its candidates a batch at a time, newest first: the customer's
 * vouchers, the tiers available now, the standalone vouchers nobody holds, the stacks. With a million
 * vouchers, each batch must walk its own index (no scan, no sort), whatever the cursor.
 */
describe('the candidate reads of a qualification', sqliteOnly('EXPLAIN QUERY PLAN of SQLite'), () => {
  let deps: Deps;
  let captured: CompiledQuery[] = [];
  before(async () => {
    const real = createDeps({ dbFile: freshDbFile(), log: createLogger({ level: 'silent' }) });
    deps = { ...real, db: recordingKysely(sqliteOf(real), (query) => captured.push(query)) };
    await createCustomer(deps, internalActor(), { source_id: 'plans-ann' });
    writeStatistics(sqliteOf(deps), 10);
  });
  after(() => deps.close());

  it('walks vouchers_holder_any_created_at, vouchers_campaign and promotion_tiers_active_created_at', async () => {
    captured = [];
    const body = {
      customer: { source_id: 'plans-ann' },
      order: { amount: 100 },
      options: { starting_after: '2030-01-01T00:00:00.000Z' },
    };
    await checkEligibility(deps, internalActor(), body as Parameters<typeof checkEligibility>[2]);
    const reads = captured.filter((q) => /order by "(v|promotion_tiers)"\."created_at" desc/.test(q.sql));
    assert.equal(reads.length, 3, 'the wallet, the tiers and the standalone vouchers');
    const plans = reads.map((q) => explain(sqliteOf(deps), q).map((row) => row.detail));
    assert.deepEqual(
      plans.map((p) => planProblems(p.map((detail) => ({ detail })))),
      [[], [], []],
    );
    const used = plans.map((p) => p.join(' | '));
    assert.match(used[0] ?? '', /vouchers_holder_any_created_at/);
    assert.match(used[1] ?? '', /promotion_tiers_active_created_at/);
    assert.match(used[2] ?? '', /vouchers_campaign /);
  });

  it('continues a batch from a range on the same index (never from the top of it)', async () => {
    captured = [];
    const after = { created_at: '2029-01-01T00:00:00.000Z', seq: 5 };
    const walk = { createdBefore: '2030-01-01T00:00:00.000Z', after, limit: 50 };
    await listQualifyingVoucherKeys(deps.db, { ...walk, holderId: 'cust_x' });
    await listQualifyingVoucherKeys(deps.db, { ...walk, holderId: null });
    await listQualifyingTierKeys(deps.db, { ...walk, now: '2028-01-01T00:00:00.000Z' });
    await listQualifyingStackKeys(deps.db, { ...walk, now: '2028-01-01T00:00:00.000Z' });
    const plans = captured.map((q) =>
      explain(sqliteOf(deps), q)
        .map((row) => row.detail)
        .join(' | '),
    );
    assert.equal(plans.length, 4);
    assert.deepEqual(
      plans.map((p) => planProblems(p.split(' | ').map((detail) => ({ detail })))),
      [[], [], [], []],
    );
    assert.match(plans[0] ?? '', /vouchers_holder_any_created_at \(holder_id=\? AND created_at<\?\)/);
    assert.match(plans[1] ?? '', /vouchers_campaign \(campaign_id=\? AND created_at<\?\)/);
    assert.match(plans[2] ?? '', /promotion_tiers_active_created_at \(active=\? AND created_at<\?\)/);
    assert.match(plans[3] ?? '', /promotion_stacks_created_at \(created_at<\?\)/);
  });
});
