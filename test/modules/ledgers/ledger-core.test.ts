import type { Tx } from '../../../src/db/engine.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { internalActor } from '../../../src/lib/actor.js';
import { AppError } from '../../../src/lib/errors.js';
import {
  assignCardHolder,
  creditGift,
  creditPoints,
  debitGift,
  debitPoints,
  onPointsChanged,
  type PointsChanged,
} from '../../../src/modules/ledgers/index.js';
import { dbFingerprint } from '../../support/db.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { customer, giftCard, loyaltyCard } from './fixtures.js';
import { assertCardMatchesLedger } from './recompute.js';
import { sqliteOf } from '../../support/sqlite.js';

const AT = '2026-03-01T10:00:00.000Z';

/** The ledger core that earning, rewards and redemptions compose into their own transactions. */
describe('the ledger core', () => {
  let server: TestServer;
  const fired: PointsChanged[] = [];
  before(async () => {
    server = await startTestServer();
    onPointsChanged(server.deps.seams, async (_trx, change) => void fired.push(change));
  });
  after(async () => server.close());

  const inTrx = <T>(fn: (trx: Tx) => Promise<T>) => server.deps.db.transaction().execute(fn);
  const rows = (sql: string, ...params: unknown[]) =>
    sqliteOf(server.deps)
      .prepare(sql)
      .all(...params);
  const refusal = async (fn: () => Promise<unknown>, key: string) => {
    const before = dbFingerprint(sqliteOf(server.deps));
    await assert.rejects(fn, (error: unknown) => error instanceof AppError && error.key === key);
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  };

  it('opens a card created with points, credits into date buckets and debits the soonest-expiring first', async () => {
    const { card, campaign } = await loyaltyCard(server, 'Core program', 'CORE-1', 100);
    const holder = await customer(server, 'core-holder');
    await inTrx((trx) =>
      assignCardHolder(server.deps, trx, { voucherId: card.id, customerId: holder.id, at: AT, actor: internalActor() }),
    );
    const actor = internalActor();
    const base = { voucherId: card.id, actor, at: AT };
    await inTrx((trx) =>
      creditPoints(server.deps, trx, { ...base, amount: 50, expiration: { type: 'CUSTOM_DATE', date: '2027-01-31' } }),
    );
    await inTrx((trx) =>
      creditPoints(server.deps, trx, { ...base, amount: 30, expiration: { type: 'CUSTOM_DATE', date: '2026-12-31' } }),
    );
    const debit = await inTrx((trx) =>
      debitPoints(server.deps, trx, { ...base, amount: 60, reason: 'gift', sourceId: 'tx-1' }),
    );
    assert.deepEqual(
      rows(
        'SELECT b.expires_on, d.points FROM points_draws d JOIN points_buckets b ON b.id = d.bucket_id WHERE d.entry_id = ? ORDER BY b.expires_on',
        debit.entry.id,
      ),
      [
        { expires_on: '2026-12-31', points: 30 },
        { expires_on: '2027-01-31', points: 30 },
      ],
    );
    assert.deepEqual(
      rows('SELECT expires_on, total_points FROM points_buckets WHERE voucher_id = ? ORDER BY expires_on', card.id),
      [
        { expires_on: '2026-12-31', total_points: 0 },
        { expires_on: '2027-01-31', total_points: 20 },
        { expires_on: '9999-12-31', total_points: 100 },
      ],
    );
    assert.deepEqual(
      rows(
        'SELECT type, delta, balance, total, reason, source_id FROM ledger_entries WHERE voucher_id = ? ORDER BY seq',
        card.id,
      ),
      [
        { type: 'POINTS_ADDITION', delta: 100, balance: 100, total: 100, reason: 'Opening balance', source_id: null },
        { type: 'POINTS_ADDITION', delta: 50, balance: 150, total: 150, reason: null, source_id: null },
        { type: 'POINTS_ADDITION', delta: 30, balance: 180, total: 180, reason: null, source_id: null },
        { type: 'POINTS_REMOVAL', delta: -60, balance: 120, total: 180, reason: 'gift', source_id: 'tx-1' },
      ],
    );
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
    assert.deepEqual(rows('SELECT loyalty_points FROM customers WHERE id = ?', holder.id), [{ loyalty_points: 120 }]);
    assert.deepEqual(rows('SELECT points FROM customer_loyalty_campaigns WHERE customer_id = ?', holder.id), [
      { points: 120 },
    ]);
    assert.deepEqual(
      fired.filter((f) => f.voucherId === card.id).map((f) => [f.type, f.delta, f.balance, f.customerId, f.campaignId]),
      [
        [null, 0, 100, holder.id, campaign.id], // given to its holder with its opening 100 points
        ['POINTS_ADDITION', 50, 150, holder.id, campaign.id],
        ['POINTS_ADDITION', 30, 180, holder.id, campaign.id],
        ['POINTS_REMOVAL', -60, 120, holder.id, campaign.id],
      ],
    );
    assert.deepEqual(
      rows(
        "SELECT type FROM customer_events WHERE customer_id = ? AND type LIKE 'customer.voucher.%' ORDER BY seq",
        holder.id,
      ),
      [{ type: 'customer.voucher.loyalty_card.points_added' }, { type: 'customer.voucher.loyalty_card.points_added' }],
    );
  });

  it('keeps every loyalty_card field a sum of the rows through a sequence of every points type', async () => {
    const { card } = await loyaltyCard(server, 'Mixed program', 'CORE-MIX', 0, {
      expiration_rules: { period_type: 'MONTH', period_value: 2 },
    });
    const holder = await customer(server, 'mixed-holder');
    const base = { voucherId: card.id, actor: internalActor(), at: AT };
    await inTrx(async (trx) => {
      await assignCardHolder(server.deps, trx, {
        voucherId: card.id,
        customerId: holder.id,
        at: AT,
        actor: internalActor(),
      });
      await creditPoints(server.deps, trx, {
        ...base,
        amount: 40,
        type: 'POINTS_ACCRUAL',
        related: { order_id: 'ord_1' },
        details: { order: { source_id: 'o-1' } },
      });
      await creditPoints(server.deps, trx, {
        ...base,
        amount: 25,
        type: 'PENDING_POINTS_ACTIVATION',
        expiration: { type: 'NON_EXPIRING' },
      });
      await creditPoints(server.deps, trx, {
        ...base,
        amount: 10,
        type: 'POINTS_TRANSFER_IN',
        expiration: { type: 'CUSTOM_DATE', date: '2026-03-02' },
      });
      await debitPoints(server.deps, trx, {
        ...base,
        amount: 30,
        type: 'POINTS_REDEMPTION',
        related: { redemption_id: 'r_1' },
      });
      await creditPoints(server.deps, trx, {
        ...base,
        amount: 12,
        type: 'POINTS_REFUND',
        related: { redemption_id: 'r_1' },
      });
      await debitPoints(server.deps, trx, { ...base, amount: 7, type: 'POINTS_TRANSFER_OUT' });
      await debitPoints(server.deps, trx, { ...base, amount: 3 });
    });
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
    const voucher = await server.request('GET', '/v1/vouchers/CORE-MIX');
    // The program's rules: two months after 2026-03-01. The redemption took 2026-03-02's 10 first, then 20 of 2026-05-01's.
    assert.deepEqual(
      [voucher.body.loyalty_card, voucher.body.redemption.redeemed_points],
      [
        {
          points: 75,
          balance: 47,
          next_expiration_date: '2026-05-01',
          next_expiration_points: 22,
          pending_points: 0,
          expired_points: 0,
          subtracted_points: 10,
        },
        18,
      ],
    );
    assert.deepEqual(rows('SELECT loyalty_points FROM customers WHERE id = ?', holder.id), [{ loyalty_points: 47 }]);
    const accrual = await server.request('GET', '/v1/vouchers/CORE-MIX/transactions?order=id&limit=1');
    assert.deepEqual(accrual.body.data[0].details.order, { id: 'ord_1', source_id: 'o-1' });
    assert.deepEqual(
      rows(
        "SELECT type FROM customer_events WHERE customer_id = ? AND type LIKE 'customer.%loyalty%' ORDER BY seq",
        holder.id,
      ).map((r) => (r as { type: string }).type),
      [
        'customer.rewarded.loyalty_points',
        'customer.voucher.loyalty_card.points_added',
        'customer.voucher.loyalty_card.points_added',
      ],
    );
  });

  it('answers a repeated source_id with the first result and writes nothing', async () => {
    const { card } = await loyaltyCard(server, 'Replay program', 'CORE-2', 10);
    const base = { voucherId: card.id, actor: internalActor(), at: AT };
    const first = await inTrx((trx) => creditPoints(server.deps, trx, { ...base, amount: 5, sourceId: 's-1' }));
    const before = dbFingerprint(sqliteOf(server.deps));
    const again = await inTrx((trx) => debitPoints(server.deps, trx, { ...base, amount: 7, sourceId: 's-1' }));
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
    assert.deepEqual([again.entry, again.replayed], [{ ...first.entry, seq: again.entry.seq }, true]);
  });

  it('refuses more than the balance, a past date and the wrong kind of card, changing nothing', async () => {
    const { card } = await loyaltyCard(server, 'Refusal program', 'CORE-3', 40);
    const gift = await giftCard(server, 'Refusal gifts', 'GIFT-3', 500);
    const base = { voucherId: card.id, actor: internalActor(), at: AT };
    await refusal(
      () => inTrx((trx) => debitPoints(server.deps, trx, { ...base, amount: 41 })),
      'loyalty_card_points_exceeded',
    );
    await refusal(
      () =>
        inTrx((trx) =>
          creditPoints(server.deps, trx, {
            ...base,
            amount: 1,
            expiration: { type: 'CUSTOM_DATE', date: '2026-02-28' },
          }),
        ),
      'invalid_expiration_date',
    );
    await refusal(() => inTrx((trx) => creditGift(server.deps, trx, { ...base, amount: 1 })), 'invalid_voucher');
    await refusal(
      () => inTrx((trx) => debitGift(server.deps, trx, { ...base, voucherId: gift.card.id, amount: 501 })),
      'gift_amount_exceeded',
    );
    await refusal(() => inTrx((trx) => debitPoints(server.deps, trx, { ...base, amount: 0 })), 'invalid_amount');
    // A caller that catches the refusal and goes on with its transaction keeps nothing of it.
    const before = dbFingerprint(sqliteOf(server.deps));
    await inTrx(async (trx) => {
      await assert.rejects(
        creditPoints(server.deps, trx, { ...base, amount: 5, type: 'POINTS_REFUND' }),
        (error: unknown) => error instanceof AppError && error.key === 'invalid_amount',
      );
      await assert.rejects(
        debitPoints(server.deps, trx, { ...base, amount: 41 }),
        (error: unknown) => error instanceof AppError && error.key === 'loyalty_card_points_exceeded',
      );
    });
    assert.equal(dbFingerprint(sqliteOf(server.deps)), before);
  });

  it("keeps a gift card's credits and its holder's summary in step with the rows", async () => {
    const { card } = await giftCard(server, 'Core gifts', 'GIFT-1', 1000);
    const holder = await customer(server, 'gift-holder');
    await inTrx((trx) =>
      assignCardHolder(server.deps, trx, { voucherId: card.id, customerId: holder.id, at: AT, actor: internalActor() }),
    );
    const base = { voucherId: card.id, actor: internalActor(), at: AT };
    await inTrx((trx) => creditGift(server.deps, trx, { ...base, amount: 250 }));
    await inTrx((trx) => debitGift(server.deps, trx, { ...base, amount: 400 }));
    await inTrx((trx) => debitGift(server.deps, trx, { ...base, amount: 100, type: 'CREDITS_REDEMPTION' }));
    await inTrx((trx) => creditGift(server.deps, trx, { ...base, amount: 50, type: 'CREDITS_REFUND' }));
    assertCardMatchesLedger(sqliteOf(server.deps), card.id);
    assert.deepEqual(
      rows('SELECT gift_amount, gift_subtracted_amount, gift_balance FROM vouchers WHERE id = ?', card.id),
      [{ gift_amount: 1250, gift_subtracted_amount: 400, gift_balance: 800 }],
    );
    assert.deepEqual(rows('SELECT gift_amount_to_go FROM customers WHERE id = ?', holder.id), [
      { gift_amount_to_go: 800 },
    ]);
    assert.deepEqual(
      rows("SELECT type FROM customer_events WHERE customer_id = ? AND type LIKE 'customer.voucher.%'", holder.id),
      [{ type: 'customer.voucher.gift.balance_added' }],
    );
  });
});
