/**
 * Every accepted variant of every list endpoint, as request paths: each `order` value of the
 * routes' own constants (with and without `-`, and absent), each filter alone and with each
 * order, and the cursors. A new order value or filter in a route appears here by itself
 * (orders) or needs one line (filters); the plan test then checks it has an index.
 */
import { CAMPAIGN_ORDER_FIELDS, CAMPAIGN_TYPES } from '../../src/modules/campaigns/campaigns.schemas.js';
import { ORDER_FIELDS as CATALOG_ORDER_FIELDS } from '../../src/modules/catalog/catalog.schemas.js';
import { CUSTOMER_ORDER_FIELDS } from '../../src/modules/customers/customers-list.schemas.js';
import { EVENT_CATEGORIES, FILTERABLE_EVENT_TYPES } from '../../src/modules/events/events.types.js';
import { ACTIVITY_ORDER_FIELDS } from '../../src/modules/events/events.schemas.js';
import { EXPORT_LIST_ORDER_FIELDS } from '../../src/modules/exports/exports.schemas.js';
import { EARNING_RULE_ORDER_FIELDS } from '../../src/modules/loyalty/earning/earning-rules.schemas.js';
import { TIER_ORDER_FIELDS } from '../../src/modules/loyalty/tiers/tiers.schemas.js';
import { TRANSACTION_ORDER_FIELDS } from '../../src/modules/ledgers/ledgers.schemas.js';
import { MEMBER_ORDER_FIELDS } from '../../src/modules/loyalty/members/members.schemas.js';
import { PENDING_POINTS_ORDER_FIELDS } from '../../src/modules/loyalty/pending-points/pending-points.schemas.js';
import { ORDER_LIST_ORDER_FIELDS } from '../../src/modules/orders/orders.schemas.js';
import { REDEMPTION_ORDER_FIELDS } from '../../src/modules/redemptions/list/redemptions-list.schemas.js';
import { VOUCHER_ORDER_FIELDS } from '../../src/modules/vouchers/vouchers.schemas.js';
import { PUBLICATION_ORDER_FIELDS } from '../../src/modules/publications/publications-list.schemas.js';
import { PROMOTION_STACK_ORDER_FIELDS } from '../../src/modules/campaigns/promotion-stacks.schemas.js';
import { PROMOTION_TIER_ORDER_FIELDS } from '../../src/modules/campaigns/promotion-tiers.schemas.js';
import {
  ASSIGNMENT_ORDER_FIELDS,
  RULE_ORDER_FIELDS,
} from '../../src/modules/validation-rules/validation-rules.schemas.js';

type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

export const DATE = '2024-06-01T00:00:00.000Z';
export const VOUCHER_CATEGORY = 'Plans category';

/** One record of each kind the lists need to reach their query (an unknown parent answers early). */
export class Fixture {
  private constructor(
    readonly campaign: { id: string; name: string },
    readonly customerId: string,
    readonly eventId: string,
    readonly productId: string,
    readonly collections: { static: string; price: string; created: string; metadata: string },
    readonly program: { id: string; cardId: string; cardCode: string },
    readonly rewards: { rewardId: string; assignmentId: string; tierId: string },
    /** A loyalty card with a ledger row to page after. */
    readonly card: { campaignId: string; code: string; transactionId: string },
    /** A PROMOTION campaign with a tier in a stack. */
    readonly promotionId: string,
    /** A validation rule assigned to the standalone voucher. */
    readonly validationRule: { id: string; objectId: string },
  ) {}

  static async create(call: Call): Promise<Fixture> {
    const campaign = await call('POST', '/v1/campaigns', {
      name: 'Plans',
      campaign_type: 'DISCOUNT_COUPONS',
      vouchers_count: 2, // one job in /v1/async-actions (no runner: it stays ENQUEUED)
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    await call('POST', '/v1/campaigns/Plans/vouchers');
    // A standalone voucher with a category, for the vouchers list's category filter.
    await call('POST', '/v1/vouchers/PLANS-STANDALONE', {
      discount: { type: 'PERCENT', percent_off: 5 },
      category: VOUCHER_CATEGORY,
    });
    const customer = await call('POST', '/v1/customers', {
      source_id: 'c1',
      email: 'a@example.com',
      address: { city: 'Oslo' },
    });
    const activity = await call('GET', `/v1/customers/${customer.id as string}/activity`);
    const product = await call('POST', '/v1/products', {
      source_id: 'p1',
      name: 'P1',
      price: 1000,
      metadata: { color: 'red' },
    });
    await call('POST', '/v1/products/p1/skus', { source_id: 's1', sku: 'S1', price: 900 });
    const collection = async (name: string, body: Record<string, unknown>) =>
      (await call('POST', '/v1/product-collections', { name, ...body })).id as string;
    const collections = {
      static: await collection('static', {
        type: 'STATIC',
        products: [
          { id: 'p1', object: 'product' },
          { id: 's1', object: 'sku' },
        ],
      }),
      // The filters docs/deviations.md promises read through an index, and one that cannot.
      price: await collection('price', {
        type: 'AUTO_UPDATE',
        filter: { junction: 'and', price: { conditions: { $less_than: [2000] } } },
      }),
      created: await collection('created', {
        type: 'AUTO_UPDATE',
        filter: { junction: 'and', created_at: { conditions: { $after: [DATE] } } },
      }),
      metadata: await collection('metadata', {
        type: 'AUTO_UPDATE',
        filter: { junction: 'and', 'metadata.color': { conditions: { $is: ['red'] } } },
      }),
    };
    await call('POST', '/v1/orders', {
      source_id: 'o1',
      status: 'PAID',
      customer: { source_id: 'c1' },
      items: [{ quantity: 1, price: 10 }],
    });
    const events = activity.data as Array<{ id: string }>;
    const program = await call('POST', '/v1/loyalties', {
      name: 'Plans loyalty',
      voucher: { loyalty_card: { points: 0 } },
    });
    const card = await call('POST', `/v1/loyalties/${program.id as string}/members`, { customer: { source_id: 'c1' } });
    const loyalty = { id: program.id as string, cardId: card.id as string, cardCode: card.code as string };
    await call('POST', `/v1/loyalties/${program.id as string}/earning-rules`, [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 1 } },
    ]);
    const reward = await call('POST', '/v1/rewards', {
      name: 'Plans reward',
      parameters: { coin: { exchange_ratio: 1 } },
    });
    const [assignment] = (await call('POST', `/v1/loyalties/${loyalty.id}/rewards`, [
      { reward: reward.id },
    ])) as unknown as Array<{ id: string }>;
    const [tier] = (await call('POST', `/v1/loyalties/${loyalty.id}/tiers`, [
      { name: 'Plans tier', points: { from: 0 } },
    ])) as unknown as Array<{ id: string }>;
    const rewards = {
      rewardId: reward.id as string,
      assignmentId: assignment?.id as string,
      tierId: tier?.id as string,
    };
    // A card of the program with a ledger row to page after (the ledger's transactions lists).
    await call('POST', `/v1/campaigns/${loyalty.id}/vouchers`, { code: 'PLANS-CARD' });
    await call('POST', '/v1/loyalties/members/PLANS-CARD/balance', {
      points: 5,
      expiration_type: 'CUSTOM_DATE',
      expiration_date: '2099-01-01',
    });
    const transactions = (await call('GET', '/v1/vouchers/PLANS-CARD/transactions')).data as Array<{ id: string }>;
    const ledgerCard = {
      campaignId: loyalty.id,
      code: 'PLANS-CARD',
      transactionId: (transactions[0] as { id: string }).id,
    };
    const promotion = await call('POST', '/v1/campaigns', {
      name: 'Plans promotion',
      campaign_type: 'PROMOTION',
      promotion: { tiers: [{ name: 'T', action: { discount: { type: 'PERCENT', percent_off: 1 } } }] },
    });
    const tierIds = (promotion.promotion as { tiers: Array<{ id: string }> }).tiers.map((t) => t.id);
    await call('POST', `/v1/promotions/${promotion.id as string}/stacks`, { name: 'S', tiers: { ids: tierIds } });
    const rule = await call('POST', '/v1/validation-rules', {
      name: 'Plans rule',
      rules: { '1': { name: 'order.amount', conditions: { $more_than: [1] } } },
    });
    const ruled = await call('POST', `/v1/validation-rules/${rule.id as string}/assignments`, {
      voucher: 'PLANS-STANDALONE',
    });
    const validationRule = { id: rule.id as string, objectId: ruled.related_object_id as string };
    return new Fixture(
      { id: campaign.id as string, name: 'Plans' },
      customer.id as string,
      (events[0] as { id: string }).id,
      product.id as string,
      collections,
      loyalty,
      rewards,
      ledgerCard,
      promotion.id as string,
      validationRule,
    );
  }
}

/** `order` absent, then each field ascending and descending. */
export const orders = (fields: readonly string[]): Array<string | undefined> => [
  undefined,
  ...fields.flatMap((f) => [f, `-${f}`]),
];

const path = (base: string, params: Record<string, string | undefined>): string => {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  const text = query.toString();
  return text ? `${base}?${text}` : base;
};

/** Every combination of one value from each list (undefined leaves the parameter out). */
export function combine(base: string, axes: Record<string, Array<Record<string, string | undefined>>>): string[] {
  let rows: Array<Record<string, string | undefined>> = [{}];
  for (const options of Object.values(axes)) rows = rows.flatMap((row) => options.map((o) => ({ ...row, ...o })));
  // A deep page: the walk an offset costs is part of the plan's question.
  return rows.map((row) => path(base, { ...row, limit: '100', page: '99' }));
}

export const each = (name: string, values: Array<string | undefined>) => values.map((v) => ({ [name]: v }));
const oneOf = (filters: Record<string, string>) => [{}, ...Object.entries(filters).map(([k, v]) => ({ [k]: v }))];

export function listVariants(f: Fixture): string[] {
  const catalogWindow = [{}, { start_date: DATE }, { end_date: DATE }, { start_date: DATE, end_date: DATE }];
  return [
    // campaign with category is refused (400: no index serves both), hence two groups.
    ...combine('/v1/vouchers', {
      order: each('order', orders(VOUCHER_ORDER_FIELDS)),
      campaign: [{}, { campaign_id: f.campaign.id }, { campaign: f.campaign.name }],
      customer: [{}, { customer: 'c1' }],
      dates: [
        {},
        { 'created_at[after]': DATE },
        { 'created_at[before]': DATE, 'updated_at[after]': DATE },
        { 'updated_at[before]': DATE },
      ],
    }),
    // category lists are ordered by created_at only (other orders: 400).
    ...combine('/v1/vouchers', {
      order: each('order', orders(['created_at'])),
      category: [{ category: VOUCHER_CATEGORY }],
      customer: [{}, { customer: 'c1' }],
      dates: [
        {},
        { 'created_at[after]': DATE },
        { 'created_at[before]': DATE, 'updated_at[after]': DATE },
        { 'updated_at[before]': DATE },
      ],
    }),
    // The reference's filters deep object (turned into the parameters above).
    ...combine('/v1/vouchers', {
      order: each('order', orders(VOUCHER_ORDER_FIELDS)),
      filters: [
        { 'filters[campaign_id][conditions][$is]': f.campaign.id },
        {
          'filters[junction]': 'and',
          'filters[holder_id][conditions][$in][0]': f.customerId,
          'filters[updated_at][conditions][$before]': DATE,
        },
      ],
    }),
    ...combine('/v1/vouchers', {
      order: each('order', orders(['created_at'])),
      filters: [
        { 'filters[category_id][conditions][$is]': VOUCHER_CATEGORY, 'filters[created_at][conditions][$after]': DATE },
      ],
    }),
    ...redemptionVariants(f),
    ...publicationVariants(f),
    ...combine('/v1/campaigns', {
      order: each('order', orders(CAMPAIGN_ORDER_FIELDS)),
      type: each('campaign_type', [undefined, ...CAMPAIGN_TYPES]),
    }),
    // A segment's members (the plan does not depend on the segment existing).
    ...combine('/v1/customers', {
      order: each('order', orders(CUSTOMER_ORDER_FIELDS)),
      filter: [
        { segment_id: 'seg_plans' },
        { segment_id: 'seg_plans', email: 'a@example.com' },
        { segment_id: 'seg_plans', 'created_at[after]': DATE },
      ],
      cursor: each('starting_after', [undefined, DATE]),
    }),
    ...combine('/v1/customers', {
      order: each('order', orders(CUSTOMER_ORDER_FIELDS)),
      filter: [
        ...oneOf({
          email: 'a@example.com',
          city: 'Oslo',
          name: 'Ann',
          'created_at[before]': DATE,
          'created_at[after]': DATE,
          'updated_at[before]': DATE,
          'updated_at[after]': DATE,
        }),
        { email: 'a@example.com', city: 'Oslo', name: 'Ann', 'created_at[after]': DATE, 'updated_at[before]': DATE },
      ],
      cursor: each('starting_after', [undefined, DATE]),
    }),
    ...combine(`/v1/customers/${f.customerId}/activity`, {
      order: each('order', orders(ACTIVITY_ORDER_FIELDS)),
      filter: [
        ...oneOf({
          start_date: DATE,
          end_date: DATE,
          campaign_id: f.campaign.id,
          campaign_type: CAMPAIGN_TYPES[0],
          category: EVENT_CATEGORIES[0],
          type: FILTERABLE_EVENT_TYPES[0],
        }),
        {
          start_date: DATE,
          end_date: DATE,
          campaign_id: f.campaign.id,
          category: EVENT_CATEGORIES[0],
          type: FILTERABLE_EVENT_TYPES[0],
        },
      ],
      cursor: each('starting_after_id', [undefined, f.eventId]),
    }),
    ...combine('/v1/products', { order: each('order', orders(CATALOG_ORDER_FIELDS)), window: catalogWindow }),
    ...combine(`/v1/products/${f.productId}/skus`, {
      order: each('order', orders(CATALOG_ORDER_FIELDS)),
      window: catalogWindow,
    }),
    ...combine('/v1/product-collections', { order: each('order', orders(CATALOG_ORDER_FIELDS)) }),
    ...Object.values(f.collections).flatMap((id) =>
      combine(`/v1/product-collections/${id}/products`, {
        order: each('order', orders(CATALOG_ORDER_FIELDS)),
        cursor: each('starting_after', [undefined, DATE]),
      }),
    ),
    ...combine('/v1/orders', {
      order: each('order', orders(ORDER_LIST_ORDER_FIELDS)),
      filter: [
        {},
        { customer: 'c1' },
        { customer_id: f.customerId },
        { status: 'PAID' },
        { customer: 'c1', status: 'PAID' },
      ],
    }),
    ...combine('/v1/exports', { order: each('order', orders(EXPORT_LIST_ORDER_FIELDS)) }),
    ...combine('/v1/loyalties', { order: each('order', orders(CAMPAIGN_ORDER_FIELDS)) }),
    ...combine(`/v1/loyalties/${f.program.id}/members`, {
      order: each('order', orders(MEMBER_ORDER_FIELDS)),
      filter: [
        ...oneOf({
          customer: 'c1',
          'created_at[before]': DATE,
          'created_at[after]': DATE,
          'updated_at[before]': DATE,
          'updated_at[after]': DATE,
          code: f.program.cardCode,
          ids: f.program.cardId,
        }),
        { customer: f.customerId, 'created_at[after]': DATE, 'updated_at[before]': DATE },
        { code: f.program.cardCode, ids: f.program.cardId, customer: 'c1' },
      ],
    }),
    ...combine(`/v1/loyalties/${f.program.id}/earning-rules`, {
      order: each('order', orders(EARNING_RULE_ORDER_FIELDS)),
    }),
    ...combine('/v1/rewards', { filter: [{}, { assignment_id: f.rewards.assignmentId }] }),
    ...combine(`/v1/rewards/${f.rewards.rewardId}/assignments`, {}),
    ...combine(`/v1/loyalties/${f.program.id}/rewards`, { filter: [{}, { assignment_id: f.rewards.assignmentId }] }),
    ...combine(`/v1/loyalties/${f.program.id}/tiers`, { order: each('order', orders(TIER_ORDER_FIELDS)) }),
    // Lists the reference gives no paging: a tier's rewards (4.8) and a member's tiers (4.9).
    `/v1/loyalties/${f.program.id}/tiers/${f.rewards.tierId}/rewards`,
    `/v1/loyalties/members/${f.program.cardCode}/tiers`,
    ...[
      `/v1/loyalties/members/${f.program.cardCode}/pending-points`,
      `/v1/loyalties/${f.program.id}/members/${f.program.cardCode}/pending-points`,
      `/v1/loyalties/${f.program.id}/pending-points`,
    ].flatMap((base) =>
      combine(base, {
        order: each('order', orders(PENDING_POINTS_ORDER_FIELDS)),
        cursor: each('starting_after_id', [undefined, 'lopp_00000000']),
      }).map((p) => p.replace('&page=99', '')),
    ),
    ...combine('/v1/async-actions', { end: each('end_date', [undefined, DATE]) }).map((p) => p.replace('&page=99', '')),
    ...[
      `/v1/loyalties/members/${f.card.code}/transactions`,
      `/v1/loyalties/${f.card.campaignId}/members/${f.card.code}/transactions`,
      `/v1/vouchers/${f.card.code}/transactions`,
    ].flatMap((base) =>
      combine(base, {
        order: each('order', orders(TRANSACTION_ORDER_FIELDS)),
        cursor: each('starting_after_id', [undefined, f.card.transactionId]),
      }).map((p) => p.replace('&page=99', '')),
    ),
    ...combine(`/v1/loyalties/${f.card.campaignId}/members/${f.card.code}/points-expiration`, {}),
    // /client/v1/promotions/tiers runs the same statements.
    ...combine('/v1/promotions/tiers', {
      order: each('order', orders(PROMOTION_TIER_ORDER_FIELDS)),
      available: each('is_available', [undefined, 'true']),
    }),
    // A campaign's tiers and stacks: no paging (at most 100 of each).
    `/v1/promotions/${f.promotionId}/tiers`,
    `/v1/promotions/${f.promotionId}/stacks`,
    ...combine('/v1/promotions/stacks', {
      order: each('order', orders(PROMOTION_STACK_ORDER_FIELDS)),
      dates: [
        {},
        { 'created_at[after]': DATE },
        { 'created_at[before]': DATE, 'updated_at[after]': DATE },
        { 'updated_at[before]': DATE },
      ],
    }),
    ...combine('/v1/validation-rules', { order: each('order', orders(RULE_ORDER_FIELDS)), window: catalogWindow }),
    ...combine(`/v1/validation-rules/${f.validationRule.id}/assignments`, {
      order: each('order', orders(ASSIGNMENT_ORDER_FIELDS)),
    }),
    ...combine('/v1/validation-rules-assignments', {
      order: each('order', orders(ASSIGNMENT_ORDER_FIELDS)),
      filter: [
        {},
        { rule: f.validationRule.id },
        { related_object_id: f.validationRule.objectId },
        { rule: f.validationRule.id, related_object_id: f.validationRule.objectId },
      ],
    }),
  ];
}

/** `filters[<field>][conditions][<op>]=value` of the reference's deep object. */
export const condition = (field: string, op: string, value = ''): Record<string, string> => ({
  [`filters[${field}][conditions][${op}]`]: value,
});

/**
 * GET /v1/redemptions: every filter alone and together by created_at (newest or oldest first),
 * every order with a date range, and each field order with its own field's equality (other
 * combinations are refused with 400). user_login $is is left out: it answers an empty list at once.
 */
function redemptionVariants(f: Fixture): string[] {
  const dates = [{}, { 'created_at[after]': DATE }, { 'created_at[before]': DATE, 'created_at[after]': '2024-01-01' }];
  const byField = {
    ...condition('voucher_code', '$is', 'PLANS-STANDALONE'),
    ...condition('related_object_id', '$in', 'v_1'),
    ...condition('related_object_parent_id', '$is', f.campaign.id),
    ...condition('parent_redemption_id', '$is', 'r_1'),
    ...condition('failure_code', '$is', 'voucher_expired'),
    ...condition('object', '$is', 'redemption_rollback'),
    ...condition('customer_id', '$is', f.customerId),
    ...condition('campaign_name', '$is', 'Plans'),
  };
  const nulls = [
    'voucher_code',
    'related_object_parent_id',
    'parent_redemption_id',
    'customer_id',
    'campaign_name',
  ].map((field) => condition(field, '$is_unknown'));
  return [
    ...combine('/v1/redemptions', {
      order: each('order', orders(['created_at'])),
      filter: [
        ...Object.entries({
          result: 'FAILURE',
          campaign: 'Plans',
          customer: 'c1',
          ...byField,
          'filters[result][conditions][$is]': 'SUCCESS',
        }).map(([k, v]) => ({ [k]: v })),
        ...nulls,
        condition('user_login', '$is_unknown'),
        condition('object', '$in', 'redemption'),
        { result: 'SUCCESS', campaign: 'Plans', customer: 'c1' },
        { result: 'FAILURE', ...condition('failure_code', '$is', 'voucher_expired') },
        { result: 'FAILURE', ...condition('object', '$is', 'redemption') },
        {
          result: 'SUCCESS',
          ...condition('voucher_code', '$is_unknown'),
          ...condition('parent_redemption_id', '$is_unknown'),
        },
        { 'filters[junction]': 'and', ...byField },
      ],
      dates,
    }),
    ...combine('/v1/redemptions', { order: each('order', orders(REDEMPTION_ORDER_FIELDS)), dates }),
    ...combine('/v1/redemptions', {
      order: each('order', ['voucher_code', '-voucher_code']),
      filter: [condition('voucher_code', '$is', 'PLANS-STANDALONE'), condition('voucher_code', '$is_unknown')],
      dates,
    }),
    ...combine('/v1/redemptions', {
      order: each('order', ['customer_id', '-customer_id']),
      filter: [
        { customer: 'c1' },
        condition('customer_id', '$is', f.customerId),
        condition('customer_id', '$is_unknown'),
      ],
      dates,
    }),
  ];
}

/**
 * GET /v1/publications: every filter alone and all together by created_at, every order alone,
 * and each field order with its own field's equality (other combinations are refused with 400).
 */
function publicationVariants(f: Fixture): string[] {
  const filters = {
    campaign: 'Plans loyalty',
    customer: 'c1',
    voucher: f.program.cardCode,
    result: 'SUCCESS',
    voucher_type: 'loyalty',
    is_referral_code: 'false',
    source_id: 'pub-1',
  };
  return [
    ...combine('/v1/publications', {
      order: each('order', orders(['created_at'])),
      filter: [
        ...oneOf(filters),
        condition('failure_code', '$is', 'no_voucher_suitable_for_publication'),
        condition('customer_id', '$in', f.customerId),
        condition('campaign_name', '$is', 'Plans'),
        { ...filters, 'filters[junction]': 'and', ...condition('failure_code', '$is', 'x') },
      ],
    }),
    ...combine('/v1/publications', {
      order: each(
        'order',
        PUBLICATION_ORDER_FIELDS.filter((o) => o !== 'created_at').flatMap((o) => [o, `-${o}`]),
      ),
    }),
    ...combine('/v1/publications', {
      order: each('order', ['voucher_code', '-voucher_code']),
      filter: [{ voucher: f.program.cardCode }],
    }),
    ...combine('/v1/publications', {
      order: each('order', ['customer_id', '-customer_id']),
      filter: [{ customer: 'c1' }, condition('customer_id', '$is', f.customerId)],
    }),
    ...combine(`/v1/vouchers/${f.program.cardCode}/publications`, {
      order: each('order', [undefined, 'created_at', '-voucher_code']),
    }),
  ];
}
