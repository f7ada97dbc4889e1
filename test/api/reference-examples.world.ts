import assert from 'node:assert/strict';
import { requestExample } from '../support/reference-examples.js';
import type { TestResponse, TestServer } from '../support/server.js';

/**
 * What the contract test's requests name: one of each resource, made through the API with
 * the reference's own request examples where it has one (their ids replaced by ours).
 */
export interface World {
  customer: { id: string; source_id: string };
  campaign: { id: string; name: string };
  voucher: { id: string; code: string };
  gift: { code: string };
  rule: { id: string; assignment: string };
  product: { id: string };
  sku: { id: string };
  category: { id: string };
  program: { id: string };
  member: { id: string; code: string };
  order: { id: string };
  reward: { id: string; assignment: string };
  earningRule: { id: string };
  promotion: { id: string; tier: string };
  redemption: { id: string };
  /** A redemption written without a parent (the legacy endpoint), as the rollback examples' redemptions were. */
  single: { id: string };
  extra: {
    member2: string;
    reward2: string;
    segment: string;
    exportId: string;
    job: string;
    collection: string;
    stack: string;
  };
  /** A second program with tiers and pending points, held by its own customer (the first program's answers stay as they were). */
  tiered: { program: string; member: string; tier: string; pending: string; doomed: string };
  /** Ids made by the cases themselves (the management API's stacking rules and webhooks), kept by `then`. */
  made: Record<string, string>;
}

export async function buildWorld(server: TestServer): Promise<World> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const customer = await call('POST', '/v1/customers', {
    source_id: 'world_customer',
    name: 'World',
    email: 'world@example.com',
  });
  const category = await call('POST', '/v1/categories', { name: 'World', hierarchy: 1 });
  const product = await call('POST', '/v1/products', {
    source_id: 'world_product',
    name: 'Phone',
    price: 20000,
    attributes: ['color', 'memory', 'processor'],
  });
  const sku = await call('POST', `/v1/products/${product.id}/skus`, {
    source_id: 'world_sku',
    sku: 'Red',
    price: 21000,
    attributes: { color: 'red' },
  });
  const rule = await call('POST', '/v1/validation-rules', {
    name: 'World rule',
    rules: { '1': { name: 'order.amount', conditions: { $more_than: [100] } }, logic: '1' },
  });
  const campaign = await call('POST', '/v1/campaigns', {
    name: 'World campaign',
    campaign_type: 'DISCOUNT_COUPONS',
    type: 'STATIC',
    vouchers_count: 2,
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1000 } },
    metadata: { region: 'EU' },
  });
  for (const code of ['WORLD-C1', 'WORLD-C2']) await call('POST', `/v1/campaigns/${campaign.id}/vouchers/${code}`, {});
  const assignment = await call('POST', `/v1/validation-rules/${rule.id}/assignments`, {
    related_object_type: 'campaign',
    related_object_id: campaign.id,
  });
  const voucher = await call('POST', '/v1/vouchers/WORLD-10', {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10 },
    metadata: { a: 1 },
  });
  const gift = await call('POST', '/v1/vouchers/WORLD-GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 10000 } });
  const program = await call('POST', '/v1/loyalties', {
    name: 'World club',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const member = await call('POST', `/v1/loyalties/${program.id}/members`, {
    customer: { source_id: customer.source_id },
  });
  await call('POST', `/v1/loyalties/${program.id}/members/${member.code}/balance`, { points: 500 });
  const earningRule = (
    await call('POST', `/v1/loyalties/${program.id}/earning-rules`, [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 5 } },
    ])
  )[0];
  const reward = await call('POST', '/v1/rewards', {
    name: 'World reward',
    type: 'MATERIAL',
    parameters: { product: { id: product.id } },
  });
  const rewardAssignment = await call('POST', `/v1/loyalties/${program.id}/rewards`, [
    { reward: reward.id, parameters: { loyalty: { points: 10 } } },
  ]);
  // Before the promotion: the newest campaign stays the promotion (GET /v1/campaigns?limit=1).
  const tiered = await buildTiered(call, { reward: reward.id, product: product.id });
  const promotion = await call('POST', '/v1/campaigns', {
    name: 'World promotion',
    campaign_type: 'PROMOTION',
    promotion: {
      tiers: [{ name: 'Tier', banner: 'Ten off', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }],
    },
  });
  const order = await call('POST', '/v1/orders', {
    ...requestExample('POST /v1/orders'),
    customer: { source_id: customer.source_id },
  });
  // Before the stacked one: the newest redemption stays the stacked child (GET /v1/redemptions?limit=1).
  const single = await call('POST', `/v1/vouchers/${voucher.code}/redemption`, {
    order: { amount: 5000 },
    customer: { id: customer.id },
  });
  const redeemed = await call('POST', '/v1/redemptions', {
    redeemables: [{ object: 'voucher', id: voucher.code }],
    order: { amount: 5000 },
    customer: { id: customer.id },
  });
  const member2 = await call('POST', `/v1/loyalties/${program.id}/members`, {
    customer: { source_id: 'world_member_2' },
  });
  const reward2 = await call('POST', '/v1/rewards', {
    name: 'World reward 2',
    type: 'MATERIAL',
    parameters: { product: { id: product.id } },
  });
  const segment = await call('POST', '/v1/segments', {
    name: 'World segment',
    type: 'static',
    customers: [customer.id],
  });
  const exported = await call('POST', '/v1/exports', { exported_object: 'voucher' });
  const job = await call('POST', `/v1/campaigns/${campaign.id}/vouchers?vouchers_count=2`, {});
  const collection = await call('POST', '/v1/product-collections', {
    type: 'STATIC',
    name: 'World collection',
    products: [{ id: product.id, object: 'product' }],
  });
  const stack = await call('POST', `/v1/promotions/${promotion.id}/stacks`, {
    name: 'World stack',
    tiers: { ids: [promotion.promotion.tiers[0].id], hierarchy_mode: 'MANUAL' },
  });
  return {
    tiered,
    made: {},
    extra: {
      member2: member2.code,
      reward2: reward2.id,
      segment: segment.id,
      exportId: exported.id,
      job: job.async_action_id,
      collection: collection.id,
      stack: stack.id,
    },
    customer,
    campaign,
    voucher,
    gift,
    product,
    sku,
    category,
    program,
    member,
    order,
    earningRule,
    promotion: { id: promotion.id, tier: promotion.promotion.tiers[0].id },
    rule: { id: rule.id, assignment: assignment.id },
    reward: {
      id: reward.id,
      assignment: (Array.isArray(rewardAssignment) ? rewardAssignment[0] : rewardAssignment).id,
    },
    redemption: { id: redeemed.redemptions[0].id },
    single: { id: single.id },
  };
}

type Call = (method: string, path: string, body?: unknown) => Promise<TestResponse['body']>;

/**
 * The tiered program: three tiers (their earning rules and rewards naming the program's own),
 * a member in the top one, and pending points from a paid order; beside it a program to delete.
 */
async function buildTiered(call: Call, w: { reward: string; product: string }): Promise<World['tiered']> {
  const program = await call('POST', '/v1/loyalties', {
    name: 'Tiered club',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const [rule] = await call('POST', `/v1/loyalties/${program.id}/earning-rules`, [
    {
      event: 'order.paid',
      loyalty: { type: 'FIXED', points: 7 },
      source: { banner: 'Seven, in three days' },
      pending_points: { period_type: 'DAY', period_value: 3 },
    },
  ]);
  const [assignment] = await call('POST', `/v1/loyalties/${program.id}/rewards`, [
    { reward: w.reward, parameters: { loyalty: { points: 40 } } },
  ]);
  // As the example's: earning rules and rewards on the bottom and top tiers, earning rules only on the middle one.
  const earning = { [rule.id]: { type: 'MULTIPLY', multiplier: 2 } };
  const rewards = { [assignment.id]: { type: 'CUSTOM', points: 30 } };
  const multiplied = { [assignment.id]: { type: 'MULTIPLY', multiplier: 4 } };
  const tiers = await call('POST', `/v1/loyalties/${program.id}/tiers`, [
    { name: 'Bottom', points: { from: 1, to: 249 }, earning_rules: earning, rewards: multiplied },
    { name: 'Middle', points: { from: 250, to: 499 }, earning_rules: earning },
    { name: 'Top', points: { from: 500, to: 1000 }, earning_rules: earning, rewards, metadata: { has_funds: true } },
  ]);
  const member = await call('POST', `/v1/loyalties/${program.id}/members`, {
    customer: { source_id: 'world_tiered' },
  });
  await call('POST', `/v1/loyalties/${program.id}/members/${member.code}/balance`, { points: 600 });
  await call('POST', '/v1/orders', {
    source_id: 'world_tiered_order',
    status: 'PAID',
    customer: { source_id: 'world_tiered' },
    items: [{ product_id: w.product, quantity: 1, price: 2000 }],
  });
  const pending = await call('GET', `/v1/loyalties/members/${member.code}/pending-points`);
  const doomed = await call('POST', '/v1/loyalties', {
    name: 'Doomed club',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  return {
    program: program.id,
    member: member.code,
    tier: tiers[2].id,
    pending: pending.data[0].id,
    doomed: doomed.id,
  };
}
