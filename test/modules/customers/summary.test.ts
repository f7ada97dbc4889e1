import type { Tx } from '../../../src/db/engine.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import { createDeps } from '../../../src/root/create-deps.js';
import { internalActor } from '../../../src/lib/actor.js';
import { fixedClock } from '../../../src/lib/clock.js';
import { AppError } from '../../../src/lib/errors.js';
import * as summary from '../../../src/modules/customers/customer-summary.service.js';
import { createCustomer, deleteCustomer, getCustomer } from '../../../src/modules/customers/customers.service.js';
import { freshDbFile } from '../../support/db.js';
import { customerObject } from './fixtures.js';
import { assertCustomerObject } from './reference.js';
import { sqliteOf } from '../../support/sqlite.js';
import { openTestDeps, sqliteOnly } from '../../support/engine.js';

const T0 = '2024-02-01T00:00:00.000Z';
const T1 = '2024-02-02T00:00:00.000Z';
const LOYAL = { id: 'camp_loyal', name: 'Loyal Club' };
const OTHER = { id: 'camp_other', name: 'Other Club' };

const zeroRedemptions = {
  total_redeemed: 0,
  total_failed: 0,
  total_succeeded: 0,
  total_rolled_back: 0,
  total_rollback_failed: 0,
  total_rollback_succeeded: 0,
  gift: { redeemed_amount: 0, amount_to_go: 0 },
  loyalty_card: { redeemed_points: 0, points_to_go: 0 },
};

function rejectsWith(key: string, details?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.key, key);
    if (details !== undefined) assert.equal(error.details, details);
    return true;
  };
}

describe('customer summary services', () => {
  let deps: Deps;
  const clock = fixedClock(T0);
  before(async () => {
    deps = await openTestDeps({ clock });
  });
  after(() => deps.close());

  const newCustomer = async (sourceId: string) =>
    (await createCustomer(deps, internalActor(), { source_id: sourceId })).customer.id;
  const inTx = <T>(fn: (trx: Tx) => Promise<T>) => deps.db.transaction().execute(fn);

  it('counts orders: totals, a rounded average, and the latest order as last even when recorded late', async () => {
    const id = await newCustomer('orders');
    await inTx((trx) =>
      summary.recordOrderInSummary(trx, {
        customer_id: id,
        amount: 1000,
        order_date: '2024-01-10T00:00:00.000Z',
        at: T1,
      }),
    );
    await inTx((trx) =>
      summary.recordOrderInSummary(trx, {
        customer_id: id,
        amount: 2001,
        order_date: '2024-01-20T00:00:00.000Z',
        at: T1,
      }),
    );
    await inTx((trx) =>
      summary.recordOrderInSummary(trx, {
        customer_id: id,
        amount: 500,
        order_date: '2024-01-05T00:00:00.000Z',
        at: T1,
      }),
    );
    const customer = await getCustomer(deps, id);
    assert.deepEqual(
      customer,
      customerObject({
        id,
        source_id: 'orders',
        created_at: T0,
        updated_at: T1,
        summary: {
          redemptions: zeroRedemptions,
          orders: {
            total_amount: 3501,
            total_count: 3,
            average_amount: 1167,
            last_order_amount: 2001,
            last_order_date: '2024-01-20T00:00:00.000Z',
          },
        },
      }),
    );
    assertCustomerObject(customer);
    await inTx((trx) => summary.withdrawOrderFromSummary(trx, { customer_id: id, amount: 2001, at: T1 }));
    assert.deepEqual((await getCustomer(deps, id)).summary.orders, {
      total_amount: 1500,
      total_count: 2,
      average_amount: 750,
      last_order_amount: 2001,
      last_order_date: '2024-01-20T00:00:00.000Z',
    });
  });

  it(
    'counts an order with one statement text whatever its amount (the statement cache keeps it)',
    sqliteOnly("better-sqlite3's statement cache"),
    async () => {
      // A connection of its own, so that no earlier test has prepared anything yet.
      const own = createDeps({ dbFile: freshDbFile(), clock });
      const prepared: string[] = [];
      const sqlite = sqliteOf(own);
      const prepare = sqlite.prepare.bind(sqlite);
      sqlite.prepare = ((source: string) => {
        prepared.push(source);
        return prepare(source);
      }) as typeof sqlite.prepare;
      try {
        const id = (await createCustomer(own, internalActor(), { source_id: 'one-statement' })).customer.id;
        for (const amount of [1000, 2001, 3777]) {
          await own.db.transaction().execute((trx) =>
            summary.recordOrderInSummary(trx, {
              customer_id: id,
              amount,
              order_date: '2024-01-10T00:00:00.000Z',
              at: T1,
            }),
          );
        }
        assert.equal(
          prepared.filter((source) => source.startsWith('update "customers"')).length,
          1,
          prepared.join('\n'),
        );
        assert.equal((await getCustomer(own, id)).summary.orders.total_amount, 6778);
      } finally {
        await own.close();
      }
    },
  );

  it('refuses to withdraw more than was counted, and the transaction leaves nothing behind', async () => {
    const id = await newCustomer('orders-guard');
    await inTx((trx) => summary.recordOrderInSummary(trx, { customer_id: id, amount: 100, order_date: T0, at: T0 }));
    await assert.rejects(
      inTx(async (trx) => {
        await summary.recordOrderInSummary(trx, { customer_id: id, amount: 50, order_date: T1, at: T1 });
        await summary.withdrawOrderFromSummary(trx, { customer_id: id, amount: 500, at: T1 });
      }),
      rejectsWith(
        'customer_summary_out_of_balance',
        `Withdrawing an order would take a total of customer ${id} below zero`,
      ),
    );
    const orders = (await getCustomer(deps, id)).summary.orders;
    assert.deepEqual(orders, {
      total_amount: 100,
      total_count: 1,
      average_amount: 100,
      last_order_amount: 100,
      last_order_date: T0,
    });
  });

  it('counts redemptions and rollbacks, with gift credits and points', async () => {
    const id = await newCustomer('redemptions');
    await inTx(async (trx) => {
      await summary.recordRedemptionInSummary(trx, { customer_id: id, result: 'SUCCESS', gift_amount: 700, at: T1 });
      await summary.recordRedemptionInSummary(trx, { customer_id: id, result: 'SUCCESS', loyalty_points: 40, at: T1 });
      await summary.recordRedemptionInSummary(trx, { customer_id: id, result: 'FAILURE', gift_amount: 999, at: T1 });
      await summary.recordRollbackInSummary(trx, { customer_id: id, result: 'SUCCESS', gift_amount: 200, at: T1 });
      await summary.recordRollbackInSummary(trx, { customer_id: id, result: 'FAILURE', at: T1 });
      await summary.adjustGiftBalanceInSummary(trx, { customer_id: id, delta: 5000, at: T1 });
      await summary.adjustGiftBalanceInSummary(trx, { customer_id: id, delta: -700, at: T1 });
    });
    assert.deepEqual((await getCustomer(deps, id)).summary.redemptions, {
      total_redeemed: 3,
      total_failed: 1,
      total_succeeded: 2,
      total_rolled_back: 1,
      total_rollback_failed: 1,
      total_rollback_succeeded: 1,
      gift: { redeemed_amount: 500, amount_to_go: 4300 },
      loyalty_card: { redeemed_points: 40, points_to_go: 0 },
    });
    await assert.rejects(
      inTx((trx) =>
        summary.recordRollbackInSummary(trx, { customer_id: id, result: 'SUCCESS', loyalty_points: 41, at: T1 }),
      ),
      rejectsWith('customer_summary_out_of_balance'),
    );
    await assert.rejects(
      inTx((trx) => summary.adjustGiftBalanceInSummary(trx, { customer_id: id, delta: -4301, at: T1 })),
      rejectsWith('customer_summary_out_of_balance'),
    );
    assert.equal((await getCustomer(deps, id)).summary.redemptions.total_rolled_back, 1);
  });

  it('adds and removes loyalty points per campaign; a campaign cannot lend points to another', async () => {
    const id = await newCustomer('loyal');
    await inTx(async (trx) => {
      assert.equal(await summary.addLoyaltyPoints(trx, { customer_id: id, campaign: LOYAL, points: 100, at: T1 }), 100);
      assert.equal(await summary.addLoyaltyPoints(trx, { customer_id: id, campaign: OTHER, points: 10, at: T1 }), 110);
      assert.equal(await summary.addLoyaltyPoints(trx, { customer_id: id, campaign: LOYAL, points: -30, at: T1 }), 80);
      await summary.setLoyaltyTier(trx, { customer_id: id, campaign: LOYAL, tier_id: 'ltr_gold', at: T1 });
    });
    await assert.rejects(
      inTx((trx) => summary.addLoyaltyPoints(trx, { customer_id: id, campaign: OTHER, points: -20, at: T1 })),
      rejectsWith(
        'customer_summary_out_of_balance',
        `Removing 20 points of campaign camp_other would take a total of customer ${id} below zero`,
      ),
    );
    await assert.rejects(
      inTx((trx) =>
        summary.addLoyaltyPoints(trx, {
          customer_id: id,
          campaign: { id: 'camp_none', name: 'None' },
          points: -1,
          at: T1,
        }),
      ),
      rejectsWith('customer_summary_out_of_balance'),
    );
    const customer = await getCustomer(deps, id);
    assert.deepEqual(customer.loyalty, {
      points: 80,
      referred_customers: 0,
      campaigns: {
        'Loyal Club': { points: 70, referred_customers: 0, loyalty_tier: 'ltr_gold' },
        'Other Club': { points: 10, referred_customers: 0 },
      },
    });
    assert.deepEqual(customer.summary.redemptions.loyalty_card, { redeemed_points: 0, points_to_go: 80 });
    assertCustomerObject(customer);
  });

  it('records a referral on both sides', async () => {
    const referrer = await newCustomer('referrer');
    const referee = await newCustomer('referee');
    const referral = { id: 'camp_ref', name: 'Bring a friend' };
    await inTx((trx) =>
      summary.recordReferral(trx, {
        customer_id: referee,
        referrer_id: referrer,
        campaign: referral,
        related_object_id: 'r_123',
        related_object_type: 'redemption',
        date: T1,
        at: T1,
      }),
    );
    assert.deepEqual((await getCustomer(deps, 'referee')).referrals, {
      total: 1,
      campaigns: [
        {
          campaign_id: 'camp_ref',
          referrer_id: referrer,
          related_object_id: 'r_123',
          related_object_type: 'redemption',
          date: T1,
        },
      ],
    });
    assert.deepEqual((await getCustomer(deps, 'referrer')).loyalty, {
      points: 0,
      referred_customers: 1,
      campaigns: { 'Bring a friend': { points: 0, referred_customers: 1 } },
    });
  });

  it('deletes a customer together with its loyalty lines and referrals', async () => {
    const referrer = await newCustomer('cascade-referrer');
    const id = await newCustomer('cascade');
    await inTx(async (trx) => {
      await summary.addLoyaltyPoints(trx, { customer_id: id, campaign: LOYAL, points: 5, at: T1 });
      await summary.recordReferral(trx, {
        customer_id: id,
        referrer_id: referrer,
        campaign: LOYAL,
        related_object_id: 'r_1',
        related_object_type: 'redemption',
        date: T1,
        at: T1,
      });
    });
    const rows = (table: string) =>
      (sqliteOf(deps).prepare(`SELECT count(*) AS n FROM ${table} WHERE customer_id = ?`).get(id) as { n: number }).n;
    assert.deepEqual([rows('customer_loyalty_campaigns'), rows('customer_referrals')], [1, 1]);
    await deleteCustomer(deps, internalActor(), id);
    assert.deepEqual([rows('customer_loyalty_campaigns'), rows('customer_referrals')], [0, 0]);
    assert.equal((await getCustomer(deps, referrer)).loyalty.referred_customers, 1, 'what the referrer earned stays');
  });

  it('is 404 for an unknown customer, and refuses amounts that are not whole non-negative numbers', async () => {
    const notFound = rejectsWith('not_found', 'Cannot find customer with id cust_missing');
    const missing = 'cust_missing';
    const calls: Array<(trx: Tx) => Promise<unknown>> = [
      (trx) => summary.recordOrderInSummary(trx, { customer_id: missing, amount: 1, order_date: T0, at: T0 }),
      (trx) => summary.withdrawOrderFromSummary(trx, { customer_id: missing, amount: 1, at: T0 }),
      (trx) => summary.recordRedemptionInSummary(trx, { customer_id: missing, result: 'SUCCESS', at: T0 }),
      (trx) => summary.recordRollbackInSummary(trx, { customer_id: missing, result: 'FAILURE', at: T0 }),
      (trx) => summary.adjustGiftBalanceInSummary(trx, { customer_id: missing, delta: 1, at: T0 }),
      (trx) => summary.addLoyaltyPoints(trx, { customer_id: missing, campaign: LOYAL, points: 1, at: T0 }),
      (trx) => summary.setLoyaltyTier(trx, { customer_id: missing, campaign: LOYAL, tier_id: null, at: T0 }),
    ];
    for (const call of calls) await assert.rejects(inTx(call), notFound);
    const id = await newCustomer('amounts');
    for (const amount of [-1, 1.5, Number.NaN]) {
      await assert.rejects(
        inTx((trx) => summary.recordOrderInSummary(trx, { customer_id: id, amount, order_date: T0, at: T0 })),
        rejectsWith('invalid_summary_change'),
      );
    }
    await assert.rejects(
      inTx((trx) => summary.addLoyaltyPoints(trx, { customer_id: id, campaign: LOYAL, points: 0.5, at: T0 })),
      rejectsWith('invalid_summary_change', 'points must be an integer, got 0.5'),
    );
  });
});
