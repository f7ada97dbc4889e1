import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../../src/lib/clock.js';
import { expireSessionLocks } from '../../../src/modules/sessions/session-locks.service.js';
import { assertMatchesReference, withoutNulls } from '../../support/openapi.js';
import { errorBody, startTestServer, type TestServer } from '../../support/server.js';
import { giftCard, percentVoucher } from './fixtures.js';
import { loyaltySetup } from './loyalty-setup.js';
import { sqliteOf } from '../../support/sqlite.js';

/**
 * Session locks (voucherify-facts 1.17 `session`): a valid validation with `{type: LOCK}` holds
 * what it would take; others see only what is left; a redemption with the key takes what was
 * held; an expired lock frees it (lazily, and by the sweep) under an injected clock; a second
 * request on a key while one runs gets multiple_requests; locks survive a restart.
 */
const NOW = '2026-05-04T09:00:00.000Z';

describe('session locks', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const post = (path: string, body: unknown) => server.request('POST', path, { body });
  const voucherBody = (code: string, extra: Record<string, unknown> = {}) => ({
    order: { amount: 1000 },
    redeemables: [{ object: 'voucher', id: code }],
    ...extra,
  });
  const reserved = (code: string) =>
    sqliteOf(server.deps)
      .prepare(
        'SELECT redeemed_quantity, reserved_quantity, reserved_credits, reserved_points FROM vouchers WHERE code = ?',
      )
      .get(code);
  const keyed = (res: { status: number; body: { key?: string } }) => `${res.status} ${res.body.key ?? 'ok'}`;

  it("holds the last unit of a voucher for 7 days by default: others are refused, the session's redemption takes it", async () => {
    await percentVoucher(server, 'LOCK-ONE', { redemption: { quantity: 1 } });
    const validation = await post('/v1/validations', voucherBody('LOCK-ONE', { session: { type: 'LOCK' } }));
    assert.equal(validation.status, 200, validation.text);
    const session = validation.body.session;
    assert.match(session.key, /^ssn_/);
    assert.deepEqual(session, { key: session.key, type: 'LOCK', ttl: 7, ttl_unit: 'DAYS' });
    assert.equal(validation.body.valid, true);
    assertMatchesReference('POST', '/v1/validations', 200, withoutNulls(validation.body));
    assert.deepEqual(reserved('LOCK-ONE'), {
      redeemed_quantity: 0,
      reserved_quantity: 1,
      reserved_credits: 0,
      reserved_points: 0,
    });

    const other = await post('/v1/validations', voucherBody('LOCK-ONE'));
    assert.deepEqual(
      [other.body.valid, other.body.inapplicable_redeemables[0].result.details.key],
      [false, 'quantity_exceeded'],
    );
    const stolen = await post('/v1/redemptions', voucherBody('LOCK-ONE'));
    assert.deepEqual(
      stolen.body,
      errorBody(stolen, {
        code: 400,
        key: 'quantity_exceeded',
        message: 'quantity exceeded',
        details: 'voucher LOCK-ONE: quantity exceeded',
        resource_id: stolen.body.resource_id,
        resource_type: 'redemption',
      }),
    );
    // Six days later the lock still holds; the session's own redemption takes the unit.
    clock.advance(6 * 86_400_000);
    assert.equal(keyed(await post('/v1/redemptions', voucherBody('LOCK-ONE'))), '400 quantity_exceeded');
    const mine = await post('/v1/redemptions', voucherBody('LOCK-ONE', { session: { key: session.key } }));
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.parent_redemption.session.key, session.key);
    assert.deepEqual(reserved('LOCK-ONE'), {
      redeemed_quantity: 1,
      reserved_quantity: 0,
      reserved_credits: 0,
      reserved_points: 0,
    });
    clock.set(NOW);
  });

  it('holds gift credits: others may spend only what is left, the session spends what it held', async () => {
    await giftCard(server, 'LOCK-GIFT', 1000);
    const gift = (credits: number, session?: unknown) =>
      post('/v1/redemptions', {
        order: { amount: 5000 },
        redeemables: [{ object: 'voucher', id: 'LOCK-GIFT', gift: { credits } }],
        ...(session ? { session } : {}),
      });
    const validation = await post('/v1/validations', {
      order: { amount: 5000 },
      redeemables: [{ object: 'voucher', id: 'LOCK-GIFT', gift: { credits: 600 } }],
      session: { type: 'LOCK', key: 'till-9', ttl: 2, ttl_unit: 'HOURS' },
    });
    assert.deepEqual(
      [validation.status, validation.body.session],
      [200, { key: 'till-9', type: 'LOCK', ttl: 2, ttl_unit: 'HOURS' }],
    );
    assert.equal(keyed(await gift(500)), '400 gift_amount_exceeded');
    assert.equal(keyed(await gift(400)), '200 ok');
    assert.equal(keyed(await gift(600, { key: 'till-9' })), '200 ok');
    assert.deepEqual(
      [(await server.request('GET', '/v1/vouchers/LOCK-GIFT')).body.gift.balance, reserved('LOCK-GIFT')],
      [0, { redeemed_quantity: 2, reserved_quantity: 0, reserved_credits: 0, reserved_points: 0 }],
    );
  });

  it("holds loyalty points and a reward's last unit of stock", async () => {
    const s = await loyaltySetup(server, 'lock-points', { points: 100, cost: 60, stock: 1 });
    const spend = (session?: unknown) =>
      post('/v1/redemptions', {
        customer: { source_id: s.customerSourceId },
        redeemables: [{ object: 'voucher', id: s.member.code, reward: { id: s.reward.id } }],
        ...(session ? { session } : {}),
      });
    const validation = await post('/v1/validations', {
      customer: { source_id: s.customerSourceId },
      redeemables: [{ object: 'voucher', id: s.member.code, reward: { id: s.reward.id } }],
      session: { type: 'LOCK', key: 'kiosk-1' },
    });
    assert.equal(validation.body.valid, true, validation.text);
    assert.deepEqual(reserved(s.member.code), {
      redeemed_quantity: 0,
      reserved_quantity: 0,
      reserved_credits: 0,
      reserved_points: 60,
    });
    assert.deepEqual(
      sqliteOf(server.deps).prepare('SELECT redeemed, reserved FROM rewards WHERE id = ?').get(s.reward.id),
      { redeemed: null, reserved: 1 },
    );
    assert.equal(keyed(await spend()), '400 loyalty_card_points_exceeded');
    assert.equal(keyed(await spend({ key: 'kiosk-1' })), '200 ok');
    assert.deepEqual(
      sqliteOf(server.deps).prepare('SELECT redeemed, reserved FROM rewards WHERE id = ?').get(s.reward.id),
      { redeemed: 1, reserved: 0 },
    );
    assert.equal((await server.request('GET', `/v1/vouchers/${s.member.code}`)).body.loyalty_card.balance, 40);
  });

  it('frees an expired lock lazily on the next request, and by the sweep; a key sent again replaces its lock', async () => {
    await percentVoucher(server, 'LOCK-TTL', { redemption: { quantity: 1 } });
    await percentVoucher(server, 'LOCK-SWEEP', { redemption: { quantity: 1 } });
    const lock = (code: string, key: string) =>
      post('/v1/validations', voucherBody(code, { session: { type: 'LOCK', key, ttl: 30, ttl_unit: 'MINUTES' } }));
    assert.equal((await lock('LOCK-TTL', 'ttl-a')).status, 200);
    assert.equal((await lock('LOCK-TTL', 'ttl-a')).status, 200);
    assert.deepEqual(reserved('LOCK-TTL'), {
      redeemed_quantity: 0,
      reserved_quantity: 1,
      reserved_credits: 0,
      reserved_points: 0,
    });
    assert.equal((await lock('LOCK-SWEEP', 'sweep-a')).status, 200);
    clock.advance(29 * 60_000);
    assert.equal(keyed(await post('/v1/redemptions', voucherBody('LOCK-TTL'))), '400 quantity_exceeded');
    clock.advance(2 * 60_000);
    assert.equal(await expireSessionLocks(server.deps), 2);
    assert.deepEqual(reserved('LOCK-SWEEP'), {
      redeemed_quantity: 0,
      reserved_quantity: 0,
      reserved_credits: 0,
      reserved_points: 0,
    });
    assert.equal(keyed(await post('/v1/redemptions', voucherBody('LOCK-TTL'))), '200 ok');
    // Lazily: a lock expired and not swept yet is dropped by the next request.
    await percentVoucher(server, 'LOCK-LAZY', { redemption: { quantity: 1 } });
    assert.equal((await lock('LOCK-LAZY', 'lazy-a')).status, 200);
    clock.advance(31 * 60_000);
    assert.equal(keyed(await post('/v1/redemptions', voucherBody('LOCK-LAZY'))), '200 ok');
    assert.deepEqual(
      sqliteOf(server.deps)
        .prepare("SELECT count(*) AS n FROM session_locks WHERE key IN ('ttl-a', 'sweep-a', 'lazy-a')")
        .get(),
      { n: 0 },
    );
    clock.set(NOW);
  });

  it('refuses a request on a key another request is running on with multiple_requests, until that claim runs out', async () => {
    await percentVoucher(server, 'LOCK-BUSY');
    const busyUntil = new Date(new Date(NOW).getTime() + 10_000).toISOString();
    // Another process's request in flight on the key: its claim, as withSessionKey writes it.
    sqliteOf(server.deps)
      .prepare('INSERT INTO session_locks (key, expires_at, busy_until, created_at) VALUES (?, ?, ?, ?)')
      .run('busy-key', NOW, busyUntil, NOW);
    const res = await post('/v1/validations', voucherBody('LOCK-BUSY', { session: { type: 'LOCK', key: 'busy-key' } }));
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'multiple_requests',
        message: 'Multiple requests',
        details: 'Another request on session busy-key is running',
      }),
    );
    assert.equal(
      keyed(await post('/v1/redemptions', voucherBody('LOCK-BUSY', { session: { key: 'busy-key' } }))),
      '400 multiple_requests',
    );
    clock.advance(10_001);
    assert.equal(
      keyed(await post('/v1/validations', voucherBody('LOCK-BUSY', { session: { type: 'LOCK', key: 'busy-key' } }))),
      '200 ok',
    );
    clock.set(NOW);
    // Sent at once from one client: each either runs alone or is refused; none holds twice.
    await percentVoucher(server, 'LOCK-BURST', { redemption: { quantity: 5 } });
    const burst = await Promise.all(
      Array.from({ length: 8 }, () =>
        post('/v1/validations', voucherBody('LOCK-BURST', { session: { type: 'LOCK', key: 'burst' } })),
      ),
    );
    assert.ok(
      burst.every((r) => keyed(r) === '200 ok' || keyed(r) === '400 multiple_requests'),
      burst.map(keyed).join(),
    );
    assert.deepEqual(reserved('LOCK-BURST'), {
      redeemed_quantity: 0,
      reserved_quantity: 1,
      reserved_credits: 0,
      reserved_points: 0,
    });
  });

  it('refuses a ttl without its unit, and an unknown unit', async () => {
    const res = await post(
      '/v1/validations',
      voucherBody('LOCK-ONE', { session: { type: 'LOCK', ttl: 5, ttl_unit: 'WEEKS' } }),
    );
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details:
          'session.ttl_unit must be one of: DAYS, HOURS, MINUTES, SECONDS, MILLISECONDS, MICROSECONDS, NANOSECONDS',
      }),
    );
    const alone = await post('/v1/validations', voucherBody('LOCK-ONE', { session: { type: 'LOCK', ttl: 5 } }));
    assert.deepEqual(
      alone.body,
      errorBody(alone, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'session.ttl and session.ttl_unit go together',
      }),
    );
  });

  it('keeps a lock across a restart', async () => {
    await percentVoucher(server, 'LOCK-RESTART', { redemption: { quantity: 1 } });
    assert.equal(
      (await post('/v1/validations', voucherBody('LOCK-RESTART', { session: { type: 'LOCK', key: 'restart-key' } })))
        .status,
      200,
    );
    const dbFile = server.dbFile;
    await server.close();
    server = await startTestServer({ clock, dbFile });
    assert.equal(keyed(await post('/v1/redemptions', voucherBody('LOCK-RESTART'))), '400 quantity_exceeded');
    assert.equal(
      keyed(await post('/v1/redemptions', voucherBody('LOCK-RESTART', { session: { key: 'restart-key' } }))),
      '200 ok',
    );
  });
});
