/**
 * The write routes of the mutation sweep (test/api/robustness-mutations.test.ts), each with a
 * VALID body that reaches deep into the route's code, and the resources their paths name.
 * `{n}` in a body becomes a new number on every request (unique names and source ids).
 */
import assert from 'node:assert/strict';
import { discountCampaign, loyaltyCampaign } from './factories.js';
import type { Json } from './mutations.js';
import type { TestServer } from './server.js';

export type Ids = Record<string, string>;

export interface WriteRoute {
  method: 'POST' | 'PUT';
  /** With `:name` for ids of the seed. */
  path: string;
  /** The reference's templated path, whose request schema judges what a success stored. */
  reference?: string;
  label?: string;
  body: (ids: Ids) => Json;
  /** The client key's routes (/client/v1) are sent with it. */
  auth?: 'client';
  /** Mutations (by label) the route accepts though the reference's schema refuses them, each a documented leniency. */
  lenient?: string[];
}

const ITEMS: Json = [
  { product_id: '{product}', quantity: 2, price: 1500, metadata: { size: 'M' } },
  { sku_id: '{sku}', quantity: 1, amount: 700 },
];
const withIds = (ids: Ids, value: Json): Json =>
  JSON.parse(
    JSON.stringify(value)
      .replaceAll('"{product}"', JSON.stringify(ids.productId))
      .replaceAll('"{sku}"', JSON.stringify(ids.skuId)),
  );
const PERIOD = { start_date: '2026-01-01T00:00:00Z', expiration_date: '2030-01-01T00:00:00Z' };
/** A null the reference's schema refuses but the API reads as "not given" (the field is left as it was, or absent). */
const NULL_AS_ABSENT = (field: string) => [`${field} = null`];
const RULES = { '1': { name: 'order.amount', conditions: { $more_than: [100] } }, logic: '1' };

/** A seeded resource as its create answers it: the id the routes name, and the rest. */
interface Seeded {
  id: string;
  [field: string]: unknown;
}

async function created<T = Seeded>(server: TestServer, method: string, path: string, body: unknown): Promise<T> {
  const res = await server.request<T>(method, path, { body });
  assert.ok(res.status < 300, `seed ${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** The resources the routes' paths and bodies name. */
export async function seedResources(server: TestServer): Promise<Ids> {
  const post = <T = Seeded>(path: string, body: unknown) => created<T>(server, 'POST', path, body);
  const product = await post('/v1/products', { name: 'P', source_id: 'p-1', attributes: ['color'], price: 1000 });
  const sku = await post('/v1/products/p-1/skus', {
    sku: 'S',
    source_id: 's-1',
    attributes: { color: 'red' },
    price: 700,
  });
  const customer = await post('/v1/customers', { source_id: 'c-1', name: 'C', email: 'c@example.com' });
  await post('/v1/campaigns', discountCampaign('Camp', { type: 'STATIC' }));
  await post('/v1/campaigns/Camp/vouchers', { code: 'CODE-1' });
  for (let i = 2; i <= 40; i += 1) await post('/v1/campaigns/Camp/vouchers', { code: `CODE-${i}` });
  await post('/v1/vouchers/GIFT-1', { type: 'GIFT_VOUCHER', gift: { amount: 100000 } });
  const club = await post('/v1/campaigns', loyaltyCampaign('Club'));
  const member = await post<{ code: string }>('/v1/loyalties/Club/members', { customer: { source_id: 'c-1' } });
  const order = await post('/v1/orders', {
    source_id: 'o-1',
    status: 'CREATED',
    customer: { source_id: 'c-1' },
    items: [{ product_id: product.id, quantity: 1 }],
  });
  const rule = await post('/v1/validation-rules', { name: 'Rule', rules: RULES });
  const reward = await post('/v1/rewards', { name: 'Mug', parameters: { product: { id: product.id } } });
  const [assignment] = await post<[Seeded]>('/v1/loyalties/Club/rewards', [
    { reward: reward.id, parameters: { loyalty: { points: 10 } } },
  ]);
  const [earning] = await post<[Seeded]>('/v1/loyalties/Club/earning-rules', [
    { event: 'order.paid', loyalty: { type: 'FIXED', points: 5 } },
  ]);
  const [tier] = await post<[Seeded]>('/v1/loyalties/Club/tiers', [{ name: 'Bronze', points: { from: 0, to: 99 } }]);
  const promotion = await post<{ promotion: { tiers: Array<{ id: string }> } }>('/v1/campaigns', {
    name: 'Promo',
    campaign_type: 'PROMOTION',
    promotion: {
      tiers: [
        { name: 'Off', action: { discount: { type: 'AMOUNT', amount_off: 100 } } },
        { name: 'Two', action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
      ],
    },
  });
  const promotionTiers = promotion.promotion.tiers.map((t: { id: string }) => t.id);
  const stack = await post('/v1/promotions/Promo/stacks', { name: 'Pair', tiers: { ids: promotionTiers } });
  const redemption = await post<{ id: string; redemptions?: Array<{ id: string }> }>('/v1/redemptions', {
    customer: { source_id: 'c-1' },
    order: { amount: 5000 },
    redeemables: [{ object: 'voucher', id: 'GIFT-1', gift: { credits: 10 } }],
  });
  await created(server, 'PUT', '/v1/stacking-rules', { applicable_redeemables_limit: 5 });
  const stackingRulesId = (await server.request('GET', '/management/v1/projects/proj_any/stacking-rules')).body.data[0]
    .id as string;
  const job = await post<{ async_action_id: string }>('/v1/campaigns/Camp/import', [{ code: 'CODE-IMPORTED' }]);
  const exported = await post('/v1/exports', { exported_object: 'voucher' });
  return {
    productId: product.id,
    skuId: sku.id,
    ref: customer.id,
    campaignId: 'Camp',
    clubId: club.id,
    memberId: member.code,
    orderId: order.id,
    ruleId: rule.id,
    rewardId: reward.id,
    assignmentId: assignment.id,
    earningRuleId: earning.id,
    tierId: tier.id,
    promotionTierId: promotionTiers[0] as string,
    promotionTier2: promotionTiers[1] as string,
    stackId: stack.id,
    redemptionId: redemption.redemptions?.[0]?.id ?? redemption.id,
    stackingRulesId,
    code: 'CODE-1',
    gift: 'GIFT-1',
    jobId: job.async_action_id,
    exportId: exported.id,
    projectId: 'proj_any',
  };
}

export const WRITE_ROUTES: WriteRoute[] = [
  {
    method: 'POST',
    path: '/v1/products',
    reference: '/v1/products',
    body: () => ({
      name: 'P{n}',
      source_id: 'p-m{n}',
      price: 100,
      attributes: ['color', 'size'],
      metadata: { a: 1, b: ['x'] },
      image_url: 'https://example.com/a.png',
    }),
  },
  {
    method: 'PUT',
    path: '/v1/products/:productId',
    reference: '/v1/products/{productId}',
    body: () => ({ name: 'P', price: 200, attributes: ['color'], metadata: { a: 2 } }),
  },
  {
    method: 'POST',
    path: '/v1/products/:productId/skus',
    reference: '/v1/products/{productId}/skus',
    body: () => ({
      sku: 'S{n}',
      source_id: 's-m{n}',
      price: 10,
      currency: 'EUR',
      attributes: { color: 'blue' },
      metadata: { k: 'v' },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/products/:productId/skus/:skuId',
    reference: '/v1/products/{productId}/skus/{skuId}',
    body: () => ({ sku: 'S', price: 11, attributes: { color: 'red' }, metadata: { k: 1 } }),
  },
  {
    method: 'POST',
    path: '/v1/product-collections',
    label: 'STATIC',
    reference: '/v1/product-collections',
    body: (ids) => ({
      type: 'STATIC',
      name: 'C{n}',
      products: [
        { id: ids.productId as string, object: 'product' } as Json,
        { id: ids.skuId as string, product_id: ids.productId as string, object: 'sku' },
      ],
    }),
  },
  {
    method: 'POST',
    path: '/v1/product-collections',
    label: 'AUTO_UPDATE',
    reference: '/v1/product-collections',
    body: () => ({
      type: 'AUTO_UPDATE',
      name: 'A{n}',
      filter: {
        junction: 'and',
        price: { conditions: { $more_than: [100] } },
        'metadata.a': { conditions: { $is: ['1'] } },
      },
    }),
  },
  {
    method: 'POST',
    path: '/v1/customers',
    reference: '/v1/customers',
    body: () => ({
      source_id: 'c-m{n}',
      name: 'N',
      email: 'n{n}@example.com',
      phone: '+48 1',
      birthdate: '1990-01-31',
      description: 'd',
      address: { city: 'Kraków', country: 'PL', line_1: 'l', postal_code: '30-001' },
      metadata: { tier: 'gold', n: 1 },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/customers/:ref',
    reference: '/v1/customers/{customerId}',
    body: () => ({ name: 'N2', email: 'x@example.com', address: { city: 'Y' }, metadata: { k: 'v' } }),
  },
  {
    method: 'POST',
    path: '/v1/campaigns',
    label: 'discount',
    reference: '/v1/campaigns',
    lenient: NULL_AS_ABSENT('validity_day_of_week'),
    body: () =>
      discountCampaign('Camp{n}', {
        ...PERIOD,
        type: 'AUTO_UPDATE',
        description: 'd',
        category: 'cat',
        metadata: { a: 1 },
        validity_day_of_week: [1, 2],
        voucher: {
          type: 'DISCOUNT_VOUCHER',
          discount: { type: 'AMOUNT', amount_off: 500 },
          redemption: { quantity: 3 },
          code_config: { length: 6, prefix: 'X-', charset: 'ABC123' },
        },
      }),
  },
  {
    method: 'POST',
    path: '/v1/campaigns',
    label: 'gift',
    reference: '/v1/campaigns',
    body: () => ({
      name: 'Gift{n}',
      campaign_type: 'GIFT_VOUCHERS',
      type: 'AUTO_UPDATE',
      vouchers_count: 1,
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000, effect: 'APPLY_TO_ORDER' } },
    }),
  },
  {
    method: 'POST',
    path: '/v1/campaigns',
    label: 'promotion',
    reference: '/v1/campaigns',
    body: () => ({
      name: 'Pro{n}',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          {
            name: 'T',
            banner: 'b',
            action: { discount: { type: 'PERCENT', percent_off: 10, amount_limit: 500 } },
            metadata: { m: 1 },
          },
        ],
      },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/campaigns/:campaignId',
    reference: '/v1/campaigns/{campaignId}',
    lenient: NULL_AS_ABSENT('validity_day_of_week'),
    body: () => ({
      description: 'd',
      ...PERIOD,
      metadata: { a: 1 },
      category: 'c2',
      auto_join: false,
      validity_day_of_week: [0, 6],
    }),
  },
  {
    method: 'POST',
    path: '/v1/campaigns/:campaignId/vouchers',
    reference: '/v1/campaigns/{campaignId}/vouchers',
    body: () => ({
      code: 'V-{n}',
      metadata: { a: 1 },
      redemption: { quantity: 2 },
      ...PERIOD,
      additional_info: 'i',
      category: 'c',
    }),
  },
  {
    method: 'POST',
    path: '/v1/campaigns/:campaignId/import',
    reference: '/v1/campaigns/{campaignId}/import',
    body: () => [{ code: 'IMP-{n}', metadata: { a: 1 }, redemption: { quantity: 1 }, active: true, category: 'c' }],
  },
  {
    method: 'POST',
    path: '/v1/vouchers',
    reference: '/v1/vouchers',
    body: () => ({
      type: 'DISCOUNT_VOUCHER',
      code: 'SA-{n}',
      discount: { type: 'AMOUNT', amount_off: 100, effect: 'APPLY_TO_ORDER' },
      ...PERIOD,
      redemption: { quantity: 5 },
      metadata: { a: 1 },
      validation_rules: [],
    }),
  },
  {
    method: 'POST',
    path: '/v1/vouchers',
    label: 'gift',
    reference: '/v1/vouchers',
    body: () => ({ type: 'GIFT_VOUCHER', code: 'G-{n}', gift: { amount: 1000 } }),
  },
  {
    method: 'PUT',
    path: '/v1/vouchers/:code',
    reference: '/v1/vouchers/{code}',
    body: () => ({ metadata: { a: 1 }, active: true, category: 'c', additional_info: 'x', ...PERIOD }),
  },
  {
    method: 'POST',
    path: '/v1/orders',
    reference: '/v1/orders',
    body: (ids) => ({
      source_id: 'o-m{n}',
      status: 'PAID',
      amount: 3700,
      customer: { source_id: 'c-1', name: 'C' },
      items: withIds(ids, ITEMS),
      metadata: { m: 'x' },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/orders/:orderId',
    reference: '/v1/orders/{orderId}',
    lenient: NULL_AS_ABSENT('status'),
    body: () => ({ status: 'CREATED', metadata: { m: 'y' }, amount: 1000 }),
  },
  {
    method: 'POST',
    path: '/v1/orders/import',
    reference: '/v1/orders/import',
    body: (ids) => [
      { source_id: 'oi-{n}', status: 'PAID', customer: { source_id: 'c-1' }, items: withIds(ids, ITEMS) },
    ],
  },
  {
    method: 'POST',
    path: '/v1/loyalties/members/:memberId/balance',
    reference: '/v1/loyalties/members/{memberId}/balance',
    body: () => ({
      points: 10,
      reason: 'r',
      source_id: 'b-{n}',
      expiration_type: 'CUSTOM_DATE',
      expiration_date: '2030-01-01',
    }),
  },
  {
    method: 'POST',
    path: '/v1/vouchers/:gift/balance',
    reference: '/v1/vouchers/{code}/balance',
    body: () => ({ amount: 100, reason: 'r', source_id: 'g-{n}' }),
  },
  // AUTO_UPDATE: the publications' mutations publish from these programs, which make new cards.
  {
    method: 'POST',
    path: '/v1/loyalties',
    reference: '/v1/loyalties',
    body: () => ({
      name: 'L{n}',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: { pattern: 'L-####' } },
      metadata: { a: 1 },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/loyalties/:clubId',
    reference: '/v1/loyalties/{campaignId}',
    body: () => ({ description: 'd', metadata: { a: 1 }, ...PERIOD }),
  },
  // customer as a string (an id or source_id): the reference's first example sends it, its schema says object.
  {
    method: 'POST',
    path: '/v1/loyalties/:clubId/members',
    reference: '/v1/loyalties/{campaignId}/members',
    lenient: ['customer = a string', 'customer = emoji and unicode'],
    body: () => ({ customer: { source_id: 'lm-{n}', name: 'M' }, metadata: { a: 1 } }),
  },
  {
    method: 'POST',
    path: '/v1/loyalties/:clubId/earning-rules',
    reference: '/v1/loyalties/{campaignId}/earning-rules',
    body: () => [
      {
        event: 'order.paid',
        loyalty: {
          type: 'PROPORTIONAL',
          calculation_type: 'ORDER_AMOUNT',
          order: { amount: { every: 100, points: 1 } },
        },
        source: { banner: 'b' },
        metadata: { a: 1 },
      },
    ],
  },
  {
    method: 'PUT',
    path: '/v1/loyalties/:clubId/earning-rules/:earningRuleId',
    reference: '/v1/loyalties/{campaignId}/earning-rules/{earningRuleId}',
    body: () => ({ loyalty: { type: 'FIXED', points: 7 }, source: { banner: 'c' }, metadata: { a: 2 } }),
  },
  {
    method: 'POST',
    path: '/v1/rewards',
    reference: '/v1/rewards',
    body: (ids) => ({
      name: 'R{n}',
      parameters: { product: { id: ids.productId as string } },
      stock: 10,
      attributes: { description: 'd' },
      metadata: { a: 1 },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/rewards/:rewardId',
    reference: '/v1/rewards/{rewardId}',
    body: (ids) => ({
      name: 'Mug',
      parameters: { product: { id: ids.productId as string } },
      stock: 5,
      metadata: { a: 1 },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/loyalties/:clubId/rewards/:assignmentId',
    reference: '/v1/loyalties/{campaignId}/rewards/{assignmentId}',
    body: () => ({ parameters: { loyalty: { points: 12 } } }),
  },
  {
    method: 'POST',
    path: '/v1/loyalties/:clubId/tiers',
    reference: '/v1/loyalties/{campaignId}/tiers',
    body: () => [{ name: 'T{n}', points: { from: 100000 }, earning_rules: {}, metadata: { a: 1 } }],
  },
  {
    method: 'PUT',
    path: '/v1/loyalties/:clubId/tiers/:tierId',
    body: () => ({ name: 'Bronze', points: { from: 0, to: 99 }, metadata: { a: 1 } }),
  },
  {
    method: 'POST',
    path: '/v1/promotions/Promo/tiers',
    reference: '/v1/promotions/{campaignId}/tiers',
    body: () => ({
      name: 'PT{n}',
      banner: 'b',
      action: { discount: { type: 'AMOUNT', amount_off: 10 } },
      validation_rules: [],
      metadata: { a: 1 },
      ...PERIOD,
    }),
  },
  {
    method: 'PUT',
    path: '/v1/promotions/tiers/:promotionTierId',
    reference: '/v1/promotions/tiers/{promotionTierId}',
    body: () => ({ name: 'Off', action: { discount: { type: 'AMOUNT', amount_off: 150 } }, hierarchy: 1, ...PERIOD }),
  },
  {
    method: 'POST',
    path: '/v1/promotions/Promo/stacks',
    reference: '/v1/promotions/{campaignId}/stacks',
    body: (ids) => ({
      name: 'S{n}',
      tiers: { ids: [ids.promotionTierId as string, ids.promotionTier2 as string], hierarchy_mode: 'MANUAL' },
      category_id: null,
    }),
  },
  {
    method: 'PUT',
    path: '/v1/promotions/Promo/stacks/:stackId',
    reference: '/v1/promotions/{campaignId}/stacks/{stackId}',
    body: (ids) => ({ name: 'Pair', tiers: { ids: [ids.promotionTier2 as string, ids.promotionTierId as string] } }),
  },
  {
    method: 'PUT',
    path: '/v1/stacking-rules',
    body: () => ({
      applicable_redeemables_limit: 5,
      applicable_exclusive_redeemables_limit: 1,
      exclusive_categories: [],
      joint_categories: [],
      redeemables_application_mode: 'ALL',
      redeemables_sorting_rule: 'REQUESTED_ORDER',
    }),
  },
  {
    method: 'POST',
    path: '/v1/validation-rules',
    reference: '/v1/validation-rules',
    body: (ids) => ({
      name: 'VR{n}',
      type: 'expression',
      rules: {
        ...RULES,
        '2': { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } },
        logic: '1 and 2',
      },
      error: { message: 'no' },
      applicable_to: { included: [{ object: 'product', id: ids.productId as string }] },
    }),
  },
  {
    method: 'PUT',
    path: '/v1/validation-rules/:ruleId',
    reference: '/v1/validation-rules/{validationRuleId}',
    lenient: NULL_AS_ABSENT('rules'),
    body: () => ({ name: 'Rule', rules: RULES, error: null }),
  },
  {
    method: 'POST',
    path: '/v1/validation-rules/:ruleId/assignments',
    reference: '/v1/validation-rules/{validationRuleId}/assignments',
    body: () => ({ related_object_type: 'voucher', related_object_id: 'CODE-2' }),
  },
  {
    method: 'POST',
    path: '/v1/validations',
    reference: '/v1/validations',
    body: (ids) => ({
      customer: { source_id: 'c-1', metadata: { tier: 'gold' } },
      order: { amount: 3700, items: withIds(ids, ITEMS), metadata: { a: 1 } },
      redeemables: [
        { object: 'voucher', id: 'CODE-3' },
        { object: 'promotion_tier', id: ids.promotionTierId as string },
      ],
      options: { expand: ['order'] },
      session: { type: 'LOCK', key: 'sess-{n}', ttl: 2, ttl_unit: 'HOURS' },
    }),
  },
  {
    method: 'POST',
    path: '/v1/vouchers/NAMED-{n}',
    reference: '/v1/vouchers/{code}',
    body: () => ({ type: 'LOYALTY_CARD', loyalty_card: { points: 10 }, metadata: { a: 1 }, ...PERIOD }),
  },
  {
    method: 'POST',
    path: '/v1/campaigns/:campaignId/vouchers/CV-{n}',
    reference: '/v1/campaigns/{campaignId}/vouchers/{code}',
    body: () => ({ metadata: { a: 1 }, redemption: { quantity: 1 }, category: 'c' }),
  },
  {
    method: 'POST',
    path: '/v1/loyalties/:clubId/members/:memberId/balance',
    reference: '/v1/loyalties/{campaignId}/members/{memberId}/balance',
    body: () => ({ points: -1, reason: 'r', source_id: 'cb-{n}' }),
  },
  {
    method: 'POST',
    path: '/v1/rewards/:rewardId/assignments',
    reference: '/v1/rewards/{rewardId}/assignments',
    body: () => ({ campaign: 'L{n}', parameters: { loyalty: { points: 5 } } }),
  },
  {
    method: 'PUT',
    path: '/v1/rewards/:rewardId/assignments/:assignmentId',
    reference: '/v1/rewards/{rewardId}/assignments/{assignmentId}',
    body: () => ({ parameters: { loyalty: { points: 11 } } }),
  },
  {
    method: 'PUT',
    path: '/management/v1/projects/:projectId/stacking-rules/:stackingRulesId',
    body: () => ({
      applicable_redeemables_limit: 4,
      redeemables_no_effect_rule: 'SKIP',
      no_effect_skip_categories: [],
    }),
  },
  {
    method: 'POST',
    path: '/v1/redemptions/:redemptionId/rollback',
    reference: '/v1/redemptions/{redemptionId}/rollback',
    body: () => ({ reason: 'r', customer: { source_id: 'c-1' }, metadata: { a: 1 } }),
  },
  {
    method: 'POST',
    path: '/client/v1/validations',
    auth: 'client',
    reference: '/client/v1/validations',
    body: (ids) => ({
      customer: { source_id: 'c-1' },
      order: { amount: 3700, items: withIds(ids, ITEMS) },
      redeemables: [{ object: 'voucher', id: 'CODE-4' }],
      metadata: { a: 1 },
    }),
  },
  {
    method: 'POST',
    path: '/client/v1/redemptions',
    auth: 'client',
    reference: '/client/v1/redemptions',
    lenient: NULL_AS_ABSENT('customer'),
    body: () => ({
      customer: { source_id: 'cc-{n}' },
      order: { amount: 900 },
      redeemables: [{ object: 'voucher', id: 'GIFT-1', gift: { credits: 1 } }],
    }),
  },
  {
    method: 'POST',
    path: '/v1/redemptions',
    reference: '/v1/redemptions',
    body: (ids) => ({
      customer: { source_id: 'c-1' },
      order: { source_id: 'ro-{n}', amount: 3700, items: withIds(ids, ITEMS) },
      redeemables: [{ object: 'voucher', id: 'GIFT-1', gift: { credits: 1 } }],
      metadata: { a: 1 },
    }),
  },
  {
    method: 'POST',
    path: '/v1/exports',
    reference: '/v1/exports',
    body: () => ({
      exported_object: 'voucher',
      parameters: {
        fields: ['code', 'voucher_type', 'metadata.a'],
        order: '-created_at',
        filters: { junction: 'and', category: { conditions: { $in: ['c'] } } },
      },
    }),
  },
  {
    method: 'POST',
    path: '/v1/publications',
    reference: '/v1/publications',
    lenient: [
      'campaign = a string',
      'campaign = emoji and unicode',
      'campaign = 10,000 characters',
      'campaign = an empty string',
    ],
    body: () => ({
      campaign: { name: 'Camp', count: 1 },
      customer: { source_id: 'pc-{n}', name: 'P' },
      source_id: 'pub-{n}',
      metadata: { a: 1 },
    }),
  },
  {
    method: 'POST',
    path: '/v1/customers/bulk/async',
    reference: '/v1/customers/bulk/async',
    body: () => [{ source_id: 'bk-{n}', name: 'B', metadata: { a: 1 }, address: { city: 'X' } }],
  },
  {
    method: 'POST',
    path: '/v1/customers/metadata/async',
    reference: '/v1/customers/metadata/async',
    body: () => ({ source_ids: ['c-1', 'nope'], metadata: { a: 1, b: 'x' } }),
  },
  {
    method: 'POST',
    path: '/v1/products/bulk/async',
    reference: '/v1/products/bulk/async',
    body: () => [{ source_id: 'p-1', name: 'P', price: 3, metadata: { a: 1 } }],
  },
  {
    method: 'POST',
    path: '/v1/vouchers/metadata/async',
    reference: '/v1/vouchers/metadata/async',
    body: () => ({ codes: ['CODE-1'], metadata: { a: 1 } }),
  },
  {
    method: 'POST',
    path: '/v1/vouchers/bulk/async',
    reference: '/v1/vouchers/bulk/async',
    body: () => [{ code: 'CODE-1', metadata: { a: 2 } }],
  },
];

/** A route's path with the seed's ids: `:campaignId` is the loyalty program under /v1/loyalties, the promotion under /v1/promotions. */
export function fillPath(path: string, ids: Ids): string {
  const context: Ids = {
    ...ids,
    campaignId: path.startsWith('/v1/loyalties')
      ? (ids.clubId as string)
      : path.startsWith('/v1/promotions')
        ? 'Promo'
        : 'Camp',
    ruleId: path.startsWith('/v1/loyalties') ? (ids.earningRuleId as string) : (ids.ruleId as string),
    id: path.startsWith('/v1/exports')
      ? (ids.exportId as string)
      : path.startsWith('/v1/redemptions')
        ? (ids.redemptionId as string)
        : (ids.jobId as string),
  };
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(context[name] ?? `no-such-${name}`));
}

/** Query strings for every GET route, one boundary or malformed parameter at a time. */
export const QUERY_VARIANTS = [
  ...['0', '1', '100', '101', '-1', '1.5', '1e400', 'abc', '', '%20', '0x10', '1e1', '%00'].map((v) => `limit=${v}`),
  ...['0', '1', '99', '100', '99999', '-5', 'NaN'].map((v) => `page=${v}`),
  'limit=1&limit=2',
  'limit[]=1',
  'limit[a]=1',
  'page=1&page=2',
  'order=zzz',
  'order=-',
  'order[]=created_at',
  'order=created_at&order=-created_at',
  'created_at[before]=nope',
  'created_at[after]=2024-13-45',
  'created_at=5',
  'created_at[before][x]=1',
  'updated_at[after]=2024-02-30T25:61:00Z',
  'start_date=2024-02-30',
  'end_date=yesterday',
  'starting_after=notadate',
  'starting_after_id=%2F..%2F',
  'starting_after_id[]=x',
  'filters[junction]=xor',
  'filters[created_at][conditions][$nope]=1',
  'filters[code][conditions][$in][0][a]=1',
  'filters[metadata.a][conditions][$is]=',
  'filters=5',
  'filters[x][y][z][w][v][u][t]=1',
  'campaign[]=x',
  'campaign=%00',
  'customer[a]=1',
  'result=NOPE',
  'status=NOPE',
  'expand[]=x',
  'type=%F0%9F%92%A5',
  `source_id=${'x'.repeat(3000)}`,
  'a[b][c][d][e][f][g][h][i][j][k]=1',
  '%=1',
  'limit=%ZZ',
];

/** Odd path ids: long, NUL, an encoded slash, unicode, dot segments, broken percent-encoding. */
export const ODD_IDS = [
  'x'.repeat(3000),
  '%00',
  '%2F',
  'a%2Fb',
  '%F0%9F%92%A5%C5%BC',
  '%2E%2E',
  '%ZZ',
  '%',
  '%20',
  '%27%22',
  'null',
  '__proto__',
  'constructor',
];
