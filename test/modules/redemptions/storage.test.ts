import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import { presentRedemption } from '../../../src/modules/redemptions/redemptions.presenter.js';
import {
  findRedemptionById,
  insertRedemptions,
  type NewRedemptionRow,
} from '../../../src/modules/redemptions/redemptions.repository.js';
import { assertRedemptionMatches } from '../../support/redemption-shape.js';
import { openTestDeps } from '../../support/engine.js';

/**
 * The redemptions table (sql/0015) and presentRedemption: every kind of record the list holds
 * (a parent, its child, a failed redemption, a rollback record) stored and answered whole,
 * each against the reference's schema.
 */
const at = '2026-01-02T03:04:05.678Z';
const order = {
  id: 'ord_1',
  source_id: null,
  status: 'PAID',
  amount: 1000,
  discount_amount: 100,
  total_discount_amount: 100,
  total_amount: 900,
  applied_discount_amount: 100,
  total_applied_discount_amount: 100,
  items: [{ object: 'order_item', product_id: 'prod_1', quantity: 1, amount: 1000, price: 1000 }],
  metadata: {},
  object: 'order',
  created_at: at,
  updated_at: null,
  customer_id: 'cust_1',
  referrer_id: null,
};
const customer = { id: 'cust_1', name: null, email: null, source_id: 'alice', metadata: {}, object: 'customer' };
const base = {
  created_at: at,
  customer_id: 'cust_1',
  tracking_id: 'alice',
  metadata: '{}',
  channel_id: 'app_1',
  channel_type: 'API' as const,
  customer_snapshot: JSON.stringify(customer),
  order_id: 'ord_1',
  order_snapshot: JSON.stringify(order),
};
const parent: NewRedemptionRow = {
  ...base,
  id: 'r_parent',
  object: 'redemption',
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  related_object_type: 'redemption',
  related_object_id: 'r_parent',
  related_redemptions: JSON.stringify({ rollbacks: [], redemptions: [{ id: 'r_child', date: at }] }),
};
const child: NewRedemptionRow = {
  ...base,
  id: 'r_child',
  object: 'redemption',
  parent_id: 'r_parent',
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  amount: 100,
  gift_amount: 100,
  related_object_type: 'voucher',
  related_object_id: 'v_1',
  related_object_parent_id: 'camp_1',
  voucher_id: 'v_1',
  voucher_code: 'GIFT1',
  campaign_id: 'camp_1',
  campaign_name: 'Gifts',
  voucher_snapshot: JSON.stringify({
    id: 'v_1',
    code: 'GIFT1',
    campaign: 'Gifts',
    campaign_id: 'camp_1',
    object: 'voucher',
  }),
  session_key: 'ssn_1',
};
const failed: NewRedemptionRow = {
  ...base,
  id: 'rf_failed',
  object: 'redemption',
  result: 'FAILURE',
  status: 'FAILED',
  order_id: null,
  order_snapshot: null,
  failure_code: 'voucher_expired',
  failure_message: 'voucher expired',
  related_object_type: 'voucher',
  related_object_id: 'v_2',
  voucher_id: 'v_2',
  voucher_code: 'OLD',
  voucher_snapshot: JSON.stringify({ id: 'v_2', code: 'OLD', campaign: null, campaign_id: null, object: 'voucher' }),
};
const rollback: NewRedemptionRow = {
  ...base,
  id: 'rr_1',
  object: 'redemption_rollback',
  parent_id: 'r_child',
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  amount: -100,
  gift_amount: -100,
  reason: 'returned',
  related_object_type: 'voucher',
  related_object_id: 'v_1',
  voucher_id: 'v_1',
  voucher_code: 'GIFT1',
};

describe('redemption storage', () => {
  let deps: Deps;
  before(async () => {
    deps = await openTestDeps();
    await insertRedemptions(deps.db, [parent, child, failed, rollback]);
  });
  after(async () => deps.close());

  const present = async (id: string) => presentRedemption((await findRedemptionById(deps.db, id))!);
  const common = {
    date: at,
    customer_id: 'cust_1',
    tracking_id: 'alice',
    metadata: {},
    channel: { channel_id: 'app_1', channel_type: 'API' },
    customer,
  };

  it('answers a parent redemption with its children in related_redemptions', async () => {
    const body = await present('r_parent');
    assert.deepEqual(body, {
      id: 'r_parent',
      object: 'redemption',
      ...common,
      redemption: null,
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      related_redemptions: { rollbacks: [], redemptions: [{ id: 'r_child', date: at }] },
      order,
      related_object_type: 'redemption',
      related_object_id: 'r_parent',
    });
    assertRedemptionMatches(body);
  });

  it('answers a child with its parent, voucher, session and gift amount', async () => {
    const body = await present('r_child');
    assert.deepEqual(body, {
      id: 'r_child',
      object: 'redemption',
      ...common,
      amount: 100,
      redemption: 'r_parent',
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      session: { key: 'ssn_1' },
      related_redemptions: { rollbacks: [], redemptions: [] },
      order,
      related_object_type: 'voucher',
      related_object_id: 'v_1',
      voucher: { id: 'v_1', code: 'GIFT1', campaign: 'Gifts', campaign_id: 'camp_1', object: 'voucher' },
      gift: { amount: 100 },
    });
    assertRedemptionMatches(body);
  });

  it('answers a failed redemption with its failure and a null order', async () => {
    const body = await present('rf_failed');
    assert.deepEqual(body, {
      id: 'rf_failed',
      object: 'redemption',
      ...common,
      redemption: null,
      result: 'FAILURE',
      status: 'FAILED',
      related_redemptions: { rollbacks: [], redemptions: [] },
      failure_code: 'voucher_expired',
      failure_message: 'voucher expired',
      order: null,
      related_object_type: 'voucher',
      related_object_id: 'v_2',
      voucher: { id: 'v_2', code: 'OLD', campaign: null, campaign_id: null, object: 'voucher' },
    });
    assertRedemptionMatches(body);
  });

  it('answers a rollback record as a redemption_rollback with its reason and a negative amount', async () => {
    const body = await present('rr_1');
    assert.deepEqual(body, {
      id: 'rr_1',
      object: 'redemption_rollback',
      ...common,
      amount: -100,
      redemption: 'r_child',
      reason: 'returned',
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      order,
      related_object_type: 'voucher',
      related_object_id: 'v_1',
      gift: { amount: -100 },
    });
    assertRedemptionMatches(body);
  });

  it('refuses a failure without its code, and a success marked FAILED', async () => {
    await assert.rejects(
      insertRedemptions(deps.db, [{ ...failed, id: 'rf_x', failure_code: null }]),
      /CHECK constraint failed|violates check constraint/,
    );
    await assert.rejects(
      insertRedemptions(deps.db, [{ ...parent, id: 'r_x', status: 'FAILED' }]),
      /CHECK constraint failed|violates check constraint/,
    );
  });
});
