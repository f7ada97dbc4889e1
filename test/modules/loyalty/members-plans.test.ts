import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CompiledQuery } from 'kysely';
import { createLogger } from '../../../src/app/logger.js';
import type { Deps } from '../../../src/app/deps.js';
import { createDeps } from '../../../src/root/create-deps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { addMember } from '../../../src/modules/loyalty/members/members.service.js';
import { createProgram } from '../../../src/modules/loyalty/programs/programs.service.js';
import { addVouchers } from '../../../src/modules/vouchers/voucher-generation.service.js';
import { freshDbFile } from '../../support/db.js';
import { explain, planProblems, recordingKysely } from '../../support/query-plans.js';
import { sqliteOf } from '../../support/sqlite.js';
import { sqliteOnly } from '../../support/engine.js';

/**
 * Adding a member looks for the customer's card and for the program's oldest free card. With
 * a million cards held, a walk of the program's cards would read them all before the first
 * free one: each lookup must read its own index (sql/0010; the free card sql/0020's
 * vouchers_free, shared with publications), with no scan and no sort.
 */
describe('the statements of adding a member', sqliteOnly('EXPLAIN QUERY PLAN of SQLite'), () => {
  let deps: Deps;
  let captured: CompiledQuery[] = [];
  before(async () => {
    const real = createDeps({ dbFile: freshDbFile(), log: createLogger({ level: 'silent' }) });
    deps = { ...real, db: recordingKysely(sqliteOf(real), (query) => captured.push(query)) };
    await createProgram(deps, { name: 'Plans', voucher: { loyalty_card: { points: 0 } } }, internalActor());
    await addVouchers(deps, 'Plans', { count: 1, body: { code: 'FREE' }, actor: internalActor() });
  });
  after(() => deps.close());

  it('finds the held card and the free card through their own indexes', async () => {
    captured = [];
    await addMember(deps, 'Plans', { customer: { source_id: 'p1' } }, internalActor());
    const cardReads = captured.filter((q) => /^select "id", "code" from "vouchers"/.test(q.sql));
    assert.equal(cardReads.length, 2, 'the held-card and the free-card lookups');
    const plans = cardReads.map((q) => explain(sqliteOf(deps), q).map((row) => row.detail));
    assert.deepEqual(
      plans.map((p) => planProblems(p.map((detail) => ({ detail })))),
      [[], []],
    );
    assert.match(plans[0]?.join() ?? '', /vouchers_holder_created_at/);
    assert.match(plans[1]?.join() ?? '', /USING INDEX vouchers_free \(/);
  });
});
