import { requestExample, responseExample } from '../support/reference-examples.js';
import type { World } from './reference-examples.world.js';

/**
 * The requests of the contract test: one per served operation whose reference answer has an
 * example, each the example's request (ids replaced by the world's) or the nearest one.
 */
export interface Case {
  /** `METHOD /path/{template}` as the reference spells it. */
  op: string;
  /** The example compared with, by name (the first when left out). */
  example?: string;
  send: (w: World) => { path: string; body?: unknown; auth?: 'client' };
  /** The status whose example is compared with, where promo answers another (a kept difference). */
  status?: string;
  /** Keeps an id the answer made, for the cases after it (`w.made`). */
  then?: (body: { id: string }, w: World) => void;
}

const c = (op: string, send: Case['send'], example?: string): Case => ({ op, send, example });

export const CASES: Case[] = [
  // Customers
  c('POST /v1/customers', () => ({ path: '/v1/customers', body: requestExample('POST /v1/customers') })),
  c('GET /v1/customers/{customerId}', (w) => ({ path: `/v1/customers/${w.customer.id}` })),
  c('PUT /v1/customers/{customerId}', (w) => ({
    path: `/v1/customers/${w.customer.id}`,
    body: { ...requestExample('PUT /v1/customers/{customerId}'), birthday: undefined },
  })),
  c('GET /v1/customers', () => ({ path: '/v1/customers?limit=1' })),
  c('GET /v1/customers/{customerId}/segments', (w) => ({ path: `/v1/customers/${w.customer.id}/segments` })),
  // Validation rules
  c('POST /v1/validation-rules', (w) => ({ path: '/v1/validation-rules', body: ruleBody(w) })),
  c('GET /v1/validation-rules/{validationRuleId}', (w) => ({ path: `/v1/validation-rules/${w.rule.id}` })),
  c('GET /v1/validation-rules', () => ({ path: '/v1/validation-rules?limit=1' })),
  c('GET /v1/validation-rules-assignments', () => ({ path: '/v1/validation-rules-assignments' })),
  c('GET /v1/validation-rules/{validationRuleId}/assignments', (w) => ({
    path: `/v1/validation-rules/${w.rule.id}/assignments`,
  })),
  // Campaigns and vouchers
  c('GET /v1/campaigns/{campaignId}', (w) => ({ path: `/v1/campaigns/${w.campaign.id}` })),
  c('GET /v1/campaigns', () => ({ path: '/v1/campaigns?limit=1' })),
  c('POST /v1/campaigns', () => ({ path: '/v1/campaigns', body: requestExample('POST /v1/campaigns') })),
  c('GET /v1/vouchers/{code}', (w) => ({ path: `/v1/vouchers/${w.voucher.code}` })),
  c('GET /v1/vouchers', () => ({ path: '/v1/vouchers?limit=1' })),
  c('POST /v1/vouchers/{code}/balance', (w) => ({
    path: `/v1/vouchers/${w.gift.code}/balance`,
    body: requestExample('POST /v1/vouchers/{code}/balance'),
  })),
  c('GET /v1/vouchers/{code}/transactions', (w) => ({ path: `/v1/vouchers/${w.gift.code}/transactions` })),
  // Validations
  c(
    'POST /v1/validations',
    (w) => ({
      path: '/v1/validations',
      body: { redeemables: [{ object: 'voucher', id: w.voucher.code }], order: { amount: 5500 } },
    }),
    'True - 5 Redeemables',
  ),
  // Loyalty
  c('GET /v1/loyalties/{campaignId}', (w) => ({ path: `/v1/loyalties/${w.program.id}` })),
  c('GET /v1/loyalties/{campaignId}/members/{memberId}', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}`,
  })),
  c('GET /v1/loyalties/members/{memberId}', (w) => ({ path: `/v1/loyalties/members/${w.member.code}` })),
  c('POST /v1/loyalties/{campaignId}/members/{memberId}/balance', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}/balance`,
    body: { points: 20 },
  })),
  c('GET /v1/loyalties/{campaignId}/members/{memberId}/transactions', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}/transactions`,
  })),
  c('GET /v1/loyalties/{campaignId}/earning-rules', (w) => ({ path: `/v1/loyalties/${w.program.id}/earning-rules` })),
  c('GET /v1/loyalties/{campaignId}/rewards', (w) => ({ path: `/v1/loyalties/${w.program.id}/rewards` })),
  c('POST /v1/loyalties/{campaignId}/members/{memberId}/redemption', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}/redemption`,
    body: { reward: { id: w.reward.id } },
  })),
  // Catalog
  c('GET /v1/products/{productId}', (w) => ({ path: `/v1/products/${w.product.id}` })),
  c('GET /v1/skus/{skuId}', (w) => ({ path: `/v1/skus/${w.sku.id}` })),
  c('GET /v1/categories/{categoryId}', (w) => ({ path: `/v1/categories/${w.category.id}` })),
  // Orders, events, redemptions
  c('POST /v1/orders', () => ({ path: '/v1/orders', body: requestExample('POST /v1/orders') })),
  c('POST /v1/events', (w) => ({
    path: '/v1/events',
    body: { event: 'world-event', customer: { source_id: w.customer.source_id } },
  })),
  c('GET /v1/redemptions/{redemptionId}', (w) => ({ path: `/v1/redemptions/${w.redemption.id}` })),
  c('POST /v1/customers/{customerId}/permanent-deletion', () => ({
    path: '/v1/customers/source_123/permanent-deletion',
  })),
  c('POST /v1/customers/metadata/async', (w) => ({
    path: '/v1/customers/metadata/async',
    body: { source_ids: [w.customer.source_id], metadata: { lang: 'en' } },
  })),
  // Vouchers, one per kind the reference shows
  c('GET /v1/vouchers/{code}', (w) => ({ path: `/v1/vouchers/${w.gift.code}` }), 'Gift Card'),
  c('GET /v1/vouchers/{code}', (w) => ({ path: `/v1/vouchers/${w.member.code}` }), 'Loyalty Card'),
  c(
    'POST /v1/vouchers',
    () => ({
      path: '/v1/vouchers',
      body: {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ORDER' },
        redemption: { quantity: 10 },
      },
    }),
    'Percentage Discount',
  ),
  c('POST /v1/vouchers/{code}', () => ({
    path: '/v1/vouchers/PATH-CODE',
    body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
  })),
  c('PUT /v1/vouchers/{code}', (w) => ({
    path: `/v1/vouchers/${w.voucher.code}`,
    body: { discount: { type: 'PERCENT', percent_off: 45, effect: 'APPLY_TO_ORDER' } },
  })),
  c('POST /v1/vouchers/{code}/enable', (w) => ({ path: `/v1/vouchers/${w.voucher.code}/enable` })),
  c('POST /v1/vouchers/{code}/disable', (w) => ({ path: `/v1/vouchers/${w.gift.code}/disable` })),
  c('GET /v1/vouchers/{code}/redemption', (w) => ({ path: `/v1/vouchers/${w.voucher.code}/redemption` })),
  c('POST /v1/vouchers/bulk/async', (w) => ({
    path: '/v1/vouchers/bulk/async',
    body: [{ code: w.voucher.code, metadata: { batch: 1 } }],
  })),
  c('POST /v1/vouchers/metadata/async', (w) => ({
    path: '/v1/vouchers/metadata/async',
    body: { codes: [w.voucher.code], metadata: { batch: 2 } },
  })),
  // Campaigns and promotions
  c('PUT /v1/campaigns/{campaignId}', (w) => ({
    path: `/v1/campaigns/${w.campaign.id}`,
    body: requestExample('PUT /v1/campaigns/{campaignId}'),
  })),
  c('POST /v1/campaigns/{campaignId}/enable', (w) => ({ path: `/v1/campaigns/${w.campaign.id}/enable` })),
  c('POST /v1/campaigns/{campaignId}/disable', (w) => ({ path: `/v1/campaigns/${w.promotion.id}/disable` })),
  c('POST /v1/campaigns/{campaignId}/vouchers/{code}', (w) => ({
    path: `/v1/campaigns/${w.campaign.id}/vouchers/ADDED-1`,
    body: {},
  })),
  c('GET /v1/promotions/tiers', () => ({ path: '/v1/promotions/tiers?limit=1' })),
  c('GET /v1/promotions/{campaignId}/tiers', (w) => ({ path: `/v1/promotions/${w.promotion.id}/tiers` })),
  c('POST /v1/promotions/{campaignId}/tiers', (w) => ({
    path: `/v1/promotions/${w.promotion.id}/tiers`,
    body: {
      name: 'More than 100',
      banner: 'More than 100',
      action: { discount: { type: 'AMOUNT', amount_off: 3000, effect: 'APPLY_TO_ORDER' } },
      metadata: {},
      active: true,
    },
  })),
  c('PUT /v1/promotions/tiers/{promotionTierId}', (w) => ({
    path: `/v1/promotions/tiers/${w.promotion.tier}`,
    body: {
      name: 'Tier 25',
      banner: 'Tier 25',
      action: { discount: { type: 'PERCENT', percent_off: 25, effect: 'APPLY_TO_ORDER' } },
      metadata: { level: 'A-21' },
    },
  })),
  c('POST /v1/promotions/tiers/{promotionTierId}/enable', (w) => ({
    path: `/v1/promotions/tiers/${w.promotion.tier}/enable`,
  })),
  c('POST /v1/promotions/tiers/{promotionTierId}/disable', (w) => ({
    path: `/v1/promotions/tiers/${w.promotion.tier}/disable`,
  })),
  c('GET /client/v1/promotions/tiers', () => ({ path: '/client/v1/promotions/tiers', auth: 'client' })),
  // Publications, qualifications, redemptions
  c('GET /v1/publications/create', (w) => ({
    path: `/v1/publications/create?campaign=${encodeURIComponent(w.campaign.name)}&customer[source_id]=${w.customer.source_id}`,
  })),
  c('POST /v1/publications', (w) => ({
    path: '/v1/publications',
    body: { campaign: { name: w.campaign.name }, customer: { source_id: w.customer.source_id } },
  })),
  c('GET /v1/publications', () => ({ path: '/v1/publications?limit=1' })),
  c('POST /v1/qualifications', (w) => ({
    path: '/v1/qualifications',
    body: { customer: { id: w.customer.id }, order: { amount: 5000 }, scenario: 'ALL', options: { limit: 10 } },
  })),
  c('GET /v1/redemptions', () => ({ path: '/v1/redemptions?limit=1' })),
  // The examples' rolled-back redemptions have no parent (the order's entry is their own): the
  // world's legacy redemption of its standalone discount voucher, as the Discount Coupon example's
  // (rolled back without a reason).
  c(
    'POST /v1/redemptions/{redemptionId}/rollback',
    (w) => ({ path: `/v1/redemptions/${w.single.id}/rollback`, body: {} }),
    'Discount Coupon',
  ),
  // Rewards and loyalty
  c('GET /v1/rewards', () => ({ path: '/v1/rewards?limit=1' })),
  c('PUT /v1/rewards/{rewardId}', (w) => ({
    path: `/v1/rewards/${w.reward.id}`,
    body: { name: 'World reward', metadata: { type: 'gift' } },
  })),
  c('GET /v1/rewards/{rewardId}/assignments', (w) => ({ path: `/v1/rewards/${w.reward.id}/assignments` })),
  c('GET /v1/loyalties', () => ({ path: '/v1/loyalties?limit=1' })),
  c('PUT /v1/loyalties/{campaignId}', (w) => ({
    path: `/v1/loyalties/${w.program.id}`,
    body: { description: 'Updated' },
  })),
  c('GET /v1/loyalties/{campaignId}/members', (w) => ({ path: `/v1/loyalties/${w.program.id}/members` })),
  c(
    'POST /v1/loyalties/{campaignId}/members',
    (w) => ({
      path: `/v1/loyalties/${w.program.id}/members`,
      body: { customer: { source_id: 'new_member' }, metadata: { year: 2022 }, channel: 'postman' },
    }),
    'Loyalty Card',
  ),
  c('GET /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}', (w) => ({
    path: `/v1/loyalties/${w.program.id}/earning-rules/${w.earningRule.id}`,
  })),
  c('POST /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/disable', (w) => ({
    path: `/v1/loyalties/${w.program.id}/earning-rules/${w.earningRule.id}/disable`,
  })),
  c('POST /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}/enable', (w) => ({
    path: `/v1/loyalties/${w.program.id}/earning-rules/${w.earningRule.id}/enable`,
  })),
  c('GET /v1/loyalties/{campaignId}/rewards/{assignmentId}', (w) => ({
    path: `/v1/loyalties/${w.program.id}/rewards/${w.reward.assignment}`,
  })),
  c('GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward', (w) => ({
    path: `/v1/loyalties/${w.program.id}/reward-assignments/${w.reward.assignment}/reward`,
  })),
  c('GET /v1/loyalties/members/{memberId}/rewards', (w) => ({
    path: `/v1/loyalties/members/${w.member.code}/rewards`,
  })),
  c('GET /v1/loyalties/members/{memberId}/transactions', (w) => ({
    path: `/v1/loyalties/members/${w.member.code}/transactions`,
  })),
  c('GET /v1/loyalties/{campaignId}/members/{memberId}/points-expiration', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}/points-expiration`,
  })),
  c('POST /v1/loyalties/members/{memberId}/balance', (w) => ({
    path: `/v1/loyalties/members/${w.member.code}/balance`,
    body: { points: 5 },
  })),
  // Catalog and categories
  c('GET /v1/products', () => ({ path: '/v1/products?limit=1' })),
  c('POST /v1/products', () => ({
    path: '/v1/products',
    body: { ...requestExample('POST /v1/products'), image_url: 'https://example.com/phone.png' },
  })),
  c('PUT /v1/products/{productId}', (w) => ({
    path: `/v1/products/${w.product.id}`,
    body: { price: 21000, metadata: { test: true } },
  })),
  c('GET /v1/products/{productId}/skus', (w) => ({ path: `/v1/products/${w.product.id}/skus` })),
  c('POST /v1/products/{productId}/skus', (w) => ({
    path: `/v1/products/${w.product.id}/skus`,
    body: { ...requestExample('POST /v1/products/{productId}/skus'), image_url: 'https://example.com/sku.png' },
  })),
  c('PUT /v1/products/{productId}/skus/{skuId}', (w) => ({
    path: `/v1/products/${w.product.id}/skus/${w.sku.id}`,
    body: { price: 22000 },
  })),
  c('GET /v1/categories', () => ({ path: '/v1/categories' })),
  c('POST /v1/categories', () => ({ path: '/v1/categories', body: requestExample('POST /v1/categories') })),
  c('PUT /v1/categories/{categoryId}', (w) => ({
    path: `/v1/categories/${w.category.id}`,
    body: { name: 'Renamed', hierarchy: 2 },
  })),
  // Orders, rules, segments, jobs
  c('GET /v1/orders', () => ({ path: '/v1/orders?limit=1' })),
  c('PUT /v1/orders/{orderId}', (w) => ({
    path: `/v1/orders/${w.order.id}`,
    body: requestExample('PUT /v1/orders/{orderId}'),
  })),
  c('PUT /v1/validation-rules/{validationRuleId}', (w) => ({
    path: `/v1/validation-rules/${w.rule.id}`,
    body: { name: 'World rule, updated' },
  })),
  c('POST /v1/validation-rules/{validationRuleId}/assignments', (w) => ({
    path: `/v1/validation-rules/${w.rule.id}/assignments`,
    body: { related_object_type: 'voucher', related_object_id: w.voucher.id },
  })),
  c(
    'POST /v1/segments',
    (w) => ({ path: '/v1/segments', body: { name: 'Static segment', type: 'static', customers: [w.customer.id] } }),
    'Static',
  ),
  c('GET /v1/async-actions', () => ({ path: '/v1/async-actions?limit=1' })),
  c('GET /v1/exports', () => ({ path: '/v1/exports' })),
  c('POST /v1/loyalties', () => ({
    path: '/v1/loyalties',
    body: { name: 'Another club', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  })),
  c('POST /v1/rewards', (w) => ({
    path: '/v1/rewards',
    body: { name: 'Material', type: 'MATERIAL', parameters: { product: { id: w.product.id } } },
  })),
  c('POST /v1/loyalties/{campaignId}/earning-rules', (w) => ({
    path: `/v1/loyalties/${w.program.id}/earning-rules`,
    body: [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 2 } }],
  })),
  c('PUT /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}', (w) => ({
    path: `/v1/loyalties/${w.program.id}/earning-rules/${w.earningRule.id}`,
    body: { loyalty: { type: 'FIXED', points: 7 } },
  })),
  c('POST /v1/loyalties/{campaignId}/rewards', (w) => ({
    path: `/v1/loyalties/${w.program.id}/rewards`,
    body: [{ reward: w.extra.reward2, parameters: { loyalty: { points: 2 } } }],
  })),
  c('PUT /v1/loyalties/{campaignId}/rewards/{assignmentId}', (w) => ({
    path: `/v1/loyalties/${w.program.id}/rewards/${w.reward.assignment}`,
    body: { parameters: { loyalty: { points: 3 } } },
  })),
  c('GET /v1/loyalties/{campaignId}/pending-points', (w) => ({ path: `/v1/loyalties/${w.program.id}/pending-points` })),
  c('GET /v1/loyalties/{campaignId}/members/{memberId}/pending-points', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}/pending-points`,
  })),
  c('GET /v1/loyalties/members/{memberId}/pending-points', (w) => ({
    path: `/v1/loyalties/members/${w.member.code}/pending-points`,
  })),
  c('POST /v1/loyalties/{campaignId}/members/{memberId}/transfers', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.extra.member2}/transfers`,
    body: [{ code: w.member.code, points: 1 }],
  })),
  c('GET /v1/segments/{segmentId}', (w) => ({ path: `/v1/segments/${w.extra.segment}` })),
  c('GET /v1/exports/{exportId}', (w) => ({ path: `/v1/exports/${w.extra.exportId}` })),
  c(
    'GET /v1/async-actions/{asyncActionId}',
    (w) => ({ path: `/v1/async-actions/${w.extra.job}` }),
    'CAMPAIGN.VOUCHERS_GENERATE',
  ),
  c('GET /v1/product-collections', () => ({ path: '/v1/product-collections' })),
  c('GET /v1/product-collections/{productCollectionId}', (w) => ({
    path: `/v1/product-collections/${w.extra.collection}`,
  })),
  c('GET /v1/product-collections/{productCollectionId}/products', (w) => ({
    path: `/v1/product-collections/${w.extra.collection}/products`,
  })),
  c('GET /v1/promotions/stacks', () => ({ path: '/v1/promotions/stacks' })),
  c('GET /v1/promotions/{campaignId}/stacks', (w) => ({ path: `/v1/promotions/${w.promotion.id}/stacks` })),
  c('GET /v1/promotions/{campaignId}/stacks/{stackId}', (w) => ({
    path: `/v1/promotions/${w.promotion.id}/stacks/${w.extra.stack}`,
  })),
  c('PUT /v1/promotions/{campaignId}/stacks/{stackId}', (w) => ({
    path: `/v1/promotions/${w.promotion.id}/stacks/${w.extra.stack}`,
    body: { name: 'Renamed stack' },
  })),
  c('POST /v1/vouchers/{code}/transactions/export', (w) => ({
    path: `/v1/vouchers/${w.gift.code}/transactions/export`,
    body: requestExample('POST /v1/vouchers/{code}/transactions/export'),
  })),
  c('POST /v1/loyalties/members/{memberId}/transactions/export', (w) => ({
    path: `/v1/loyalties/members/${w.member.code}/transactions/export`,
    body: requestExample('POST /v1/loyalties/members/{memberId}/transactions/export'),
  })),
  c('POST /v1/loyalties/{campaignId}/members/{memberId}/transactions/export', (w) => ({
    path: `/v1/loyalties/${w.program.id}/members/${w.member.code}/transactions/export`,
    body: requestExample('POST /v1/loyalties/members/{memberId}/transactions/export'),
  })),
  c('POST /v1/orders/import', () => ({
    path: '/v1/orders/import',
    body: [{ source_id: 'imported-order', status: 'PAID', amount: 1000 }],
  })),
  c('POST /v1/products/bulk/async', () => ({
    path: '/v1/products/bulk/async',
    body: [{ source_id: 'world_product', metadata: { vendor: 'Online Store' } }],
  })),
  c('POST /v1/products/metadata/async', () => ({
    path: '/v1/products/metadata/async',
    body: { source_ids: ['world_product'], metadata: { origin: 'PL' } },
  })),
  c('POST /client/v1/events', (w) => ({
    path: '/client/v1/events',
    body: { event: 'world-event', customer: { source_id: w.customer.source_id } },
    auth: 'client',
  })),
  // Promotion stacks, reward assignments, a program deleted
  c('POST /v1/promotions/{campaignId}/stacks', (w) => ({
    path: `/v1/promotions/${w.promotion.id}/stacks`,
    body: { name: 'Fifth Stack', tiers: { ids: [w.promotion.tier], hierarchy_mode: 'MANUAL' } },
  })),
  c('POST /v1/rewards/{rewardId}/assignments', (w) => ({
    path: `/v1/rewards/${w.extra.reward2}/assignments`,
    body: { campaign: w.tiered.program, parameters: { loyalty: { points: 39 } } },
  })),
  c('PUT /v1/rewards/{rewardId}/assignments/{assignmentId}', (w) => ({
    path: `/v1/rewards/${w.reward.id}/assignments/${w.reward.assignment}`,
    body: requestExample('PUT /v1/rewards/{rewardId}/assignments/{assignmentId}'),
  })),
  { ...c('DELETE /v1/loyalties/{campaignId}', (w) => ({ path: `/v1/loyalties/${w.tiered.doomed}` })), status: '200' },
  // Loyalty tiers, pending points, a member's redemption
  c('GET /v1/loyalties/{campaignId}/tiers', (w) => ({ path: `/v1/loyalties/${w.tiered.program}/tiers` })),
  c('GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}', (w) => ({
    path: `/v1/loyalties/${w.tiered.program}/tiers/${w.tiered.tier}`,
  })),
  c('GET /v1/loyalties/members/{memberId}/tiers', (w) => ({ path: `/v1/loyalties/members/${w.tiered.member}/tiers` })),
  c('GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules', (w) => ({
    path: `/v1/loyalties/${w.tiered.program}/tiers/${w.tiered.tier}/earning-rules`,
  })),
  c('GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards', (w) => ({
    path: `/v1/loyalties/${w.tiered.program}/tiers/${w.tiered.tier}/rewards`,
  })),
  c('POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate', (w) => ({
    path: `/v1/loyalties/members/${w.tiered.member}/pending-points/${w.tiered.pending}/activate`,
  })),
  c('POST /v1/loyalties/members/{memberId}/redemption', (w) => ({
    path: `/v1/loyalties/members/${w.member.code}/redemption`,
    body: {
      reward: { id: w.reward.id },
      order: {
        items: [
          { product_id: w.product.id, quantity: 1 },
          { product_id: w.product.id, quantity: 2, price: 22500 },
        ],
      },
    },
  })),
  // The management API, last: stored stacking rules apply to every later request
  {
    ...c('POST /management/v1/projects/{projectId}/stacking-rules', (w) => ({
      path: '/management/v1/projects/proj_promo/stacking-rules',
      body: stackingRulesBody(w),
    })),
    then: (body, w) => {
      w.made.stackingRules = body.id;
    },
  },
  c('GET /management/v1/projects/{projectId}/stacking-rules', () => ({
    path: '/management/v1/projects/proj_promo/stacking-rules',
  })),
  c('GET /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}', (w) => ({
    path: `/management/v1/projects/proj_promo/stacking-rules/${w.made.stackingRules}`,
  })),
  c('PUT /management/v1/projects/{projectId}/stacking-rules/{stackingRulesId}', (w) => ({
    path: `/management/v1/projects/proj_promo/stacking-rules/${w.made.stackingRules}`,
    body: { redeemables_limit: 20 },
  })),
  {
    ...c('POST /management/v1/projects/{projectId}/webhooks', () => ({
      path: '/management/v1/projects/proj_promo/webhooks',
      body: { target_url: 'http://127.0.0.1:9/hook', events: ['redemption.succeeded'], active: true },
    })),
    then: (body, w) => {
      w.made.webhook = body.id;
    },
  },
  c('GET /management/v1/projects/{projectId}/webhooks', () => ({
    path: '/management/v1/projects/proj_promo/webhooks',
  })),
  c('GET /management/v1/projects/{projectId}/webhooks/{webhookId}', (w) => ({
    path: `/management/v1/projects/proj_promo/webhooks/${w.made.webhook}`,
  })),
  c('PUT /management/v1/projects/{projectId}/webhooks/{webhookId}', (w) => ({
    path: `/management/v1/projects/proj_promo/webhooks/${w.made.webhook}`,
    body: { events: ['redemption.failed'], active: false },
  })),
];

/**
 * The reference's recorded stacking rules as a request (their own answer: the request example
 * is empty), on the world's category.
 */
function stackingRulesBody(w: World) {
  const { id, created_at, ...rules } = responseExample(
    'POST /management/v1/projects/{projectId}/stacking-rules',
    '200',
  ) as Record<string, unknown>;
  const cat = w.category.id;
  return {
    ...rules,
    exclusive_categories: [cat],
    joint_categories: [],
    applicable_redeemables_category_limits: { [cat]: 1 },
    initial_amount_mode_categories: [],
    discounted_amount_mode_categories: [cat],
  };
}

/**
 * The reference's validation-rule request, on the world's product, without a collection it has
 * not and with its first rule only (the others name rules promo does not evaluate).
 */
function ruleBody(w: World) {
  const body = requestExample('POST /v1/validation-rules') as {
    rules: Record<string, unknown>;
    applicable_to: { excluded: Array<{ id: string }>; included: Array<{ id: string; object: string }> };
  };
  body.rules = { '1': body.rules['1'], logic: '1' };
  body.applicable_to.excluded = [];
  body.applicable_to.included = [
    {
      object: 'product',
      id: w.product.id,
      source_id: null,
      effect: 'APPLY_TO_MOST_EXPENSIVE',
      quantity_limit: 1,
    } as never,
  ];
  return body;
}
