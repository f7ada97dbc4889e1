import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_STACKING_RULES } from '../../src/engine/stacking/index.js';
import { fixedClock } from '../../src/lib/clock.js';
import { runCli } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

/**
 * What validations keep in memory between commits (db/versioned-cache.ts, docs/performance.md "Hot paths"):
 * the stacking rules and when the first session lock expires. A commit by another process, or
 * by this server's own writer, shows in the very next validation.
 */
const NOW = '2026-05-04T09:00:00.000Z';

describe('reads kept in memory until the next commit', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
    for (const code of ['KEPT-1', 'KEPT-LOCK']) {
      const res = await server.request('POST', `/v1/vouchers/${code}`, {
        body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, redemption: { quantity: 1 } },
      });
      assert.equal(res.status, 200, res.text);
    }
  });
  after(() => server.close());

  const validate = async (code: string, extra: Record<string, unknown> = {}) => {
    const res = await server.request('POST', '/v1/validations', {
      body: { order: { amount: 1000 }, redeemables: [{ object: 'voucher', id: code }], ...extra },
    });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  it('answers with stacking rules that another process or this server changed, from the next validation on', async () => {
    for (let i = 0; i < 3; i++) assert.deepEqual((await validate('KEPT-1')).stacking_rules, DEFAULT_STACKING_RULES);
    const set = await runCli(['stacking-rules', 'set', '--db', server.dbFile, '--applicable-limit', '3']);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual((await validate('KEPT-1')).stacking_rules, {
      ...DEFAULT_STACKING_RULES,
      applicable_redeemables_limit: 3,
    });

    const put = await server.request('PUT', '/v1/stacking-rules', { body: { applicable_redeemables_limit: 4 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual((await validate('KEPT-1')).stacking_rules, {
      ...DEFAULT_STACKING_RULES,
      applicable_redeemables_limit: 4,
    });
  });

  it('releases a session lock that expired since the first expiry was read', async () => {
    const unit = (body: { valid: boolean; inapplicable_redeemables: [{ result: { details: { key: string } } }] }) =>
      body.valid ? 'valid' : body.inapplicable_redeemables[0].result.details.key;
    assert.equal(unit(await validate('KEPT-LOCK')), 'valid', 'no lock yet: the first expiry read is "none"');
    const locked = await validate('KEPT-LOCK', {
      session: { type: 'LOCK', key: 'kept-lock', ttl: 30, ttl_unit: 'MINUTES' },
    });
    assert.equal(locked.valid, true);
    assert.equal(unit(await validate('KEPT-LOCK')), 'quantity_exceeded', 'the lock holds the last unit');
    clock.advance(29 * 60_000);
    assert.equal(unit(await validate('KEPT-LOCK')), 'quantity_exceeded');
    clock.advance(2 * 60_000);
    assert.equal(unit(await validate('KEPT-LOCK')), 'valid', 'expired: released by this validation');
    assert.deepEqual(
      sqliteOf(server.deps).prepare("SELECT count(*) AS n FROM session_locks WHERE key = 'kept-lock'").get(),
      { n: 0 },
    );
    clock.set(NOW);
  });
});
