/**
 * What the contract test (reference-examples.test.ts) lets differ from a reference example,
 * each with its reason. Every entry is also in docs/deviations.md ("Answer shapes"). A difference line is
 * `path: what` (test/support/shape-diff.ts); `key` is its last path key, indices left out.
 */
export type Kind = 'absent' | 'extra' | 'null' | 'value' | 'other';

export function kindOf(line: string): Kind {
  const what = line.slice(line.indexOf(': ') + 2);
  if (what.startsWith('null, the example')) return 'null';
  if (what.startsWith('absent, the example')) return 'absent';
  if (what.endsWith('absent in the example')) return 'extra';
  if (what.endsWith('the example has null')) return 'value';
  return 'other';
}

const pathOf = (line: string) => line.slice(0, line.indexOf(': '));
const keyOf = (line: string) =>
  pathOf(line)
    .replace(/\[\d+\]/g, '')
    .split('.')
    .pop() ?? '';

/** Fields an example's own request set (or its older data had): ours leaves them unset. */
const SET_BY_THE_EXAMPLE = [
  'start_date',
  'expiration_date',
  'validity_timeframe',
  'validity_day_of_week',
  'validity_hours',
  'activity_duration_after_publishing',
  'category',
  'category_id',
  'categories',
  'campaign',
  'campaign_id',
  'source_id',
  'source',
  'reason',
  'holder_id',
  'referrer_id',
  'referrer',
  'image_url',
  'additional_info',
  'quantity',
  'description',
  'banner',
  'more_starting_after',
  'last_order_date',
  'currency',
  'prefix',
  'initial_count',
  'next_expiration_date',
  'next_expiration_points',
  'updated_at',
  'tracking_id',
  'session',
  'automation_id',
  'segment',
  'loyalty_tiers_expiration',
  'price',
  'related_transaction_id',
  'customer_id',
  'birthday',
  'assets',
  'expires_at',
  'loyalty_tier',
  'custom_event',
  'expiration_rules',
  'error',
  'property',
  'validation_rule_id',
  'amount_limit',
  'percent_off_formula',
  'aggregated_amount_limit',
  'bundle',
  'stock',
  'sku_id',
];

/** Fields of promo's objects that these older recorded answers do not show; the reference's schemas list them. */
const DOCUMENTED_EXTRAS = [
  'validity_hours',
  'categories',
  'referrer_id',
  'pending_points',
  'expired_points',
  'subtracted_points',
  'operation_type',
  'validation_rules_assignments',
  'initial_amount',
  'items_discount_amount',
  'items_applied_discount_amount',
  'discount_amount',
  'applied_discount_amount',
  'total_discount_amount',
  'total_applied_discount_amount',
  'total_amount',
  'amount',
  'redemptions',
  'redeemed_points',
  'promotion_id',
  'has_more',
  'stacked',
  'rollback_stacked',
  'applicable_exclusive_redeemables_per_category_limit',
  'applicable_redeemables_per_category_limit',
  'applicable_redeemables_category_limits',
  'no_effect_skip_categories',
  'no_effect_redeem_anyway_categories',
  'redemption',
  'status',
  'related_redemptions',
  'channel',
  'id',
  'product_id',
  'processing_time',
];

export interface Kept {
  /** `METHOD /path` as the reference spells it; every operation when left out. */
  op?: string;
  /** Or the operations a pattern matches. */
  ops?: RegExp;
  kinds?: Kind[];
  keys?: string[];
  /** Matched against the path. */
  path?: RegExp;
  why: string;
}

const ANOTHER_REQUEST =
  'the example was recorded for another request: another discount (type, effect, limits, formula), or a voucher, reward or program of another kind';

export const KEPT: Kept[] = [
  {
    kinds: ['null', 'absent'],
    keys: SET_BY_THE_EXAMPLE,
    why: "set by the example's own request or data; this request leaves it unset",
  },
  {
    kinds: ['extra'],
    keys: DOCUMENTED_EXTRAS,
    why: "a field of the reference's own schema for this object that this older recorded answer does not show",
  },
  {
    ops: /^POST \/v1\/vouchers(\/\{code\})?$/,
    path: /^category_id$/,
    kinds: ['extra'],
    why: "kept: a voucher without a category answers category_id null, as the reference's recorded GET /v1/vouchers/{code}, enable, disable and publication answers do (10 of them); its recorded create answers leave it out",
  },
  {
    op: 'GET /v1/loyalties/{campaignId}/members/{memberId}/points-expiration',
    path: /^data\[\d+\]\.updated_at$/,
    kinds: ['extra'],
    why: "the world's bucket changed since it was made (points drawn from it), the example's did not; updated_at is a field of the reference's LoyaltyPointsBucket",
  },
  {
    path: /(^|\.)(discount|action\.discount|result\.discount)\.(effect|amount_off|percent_off|is_dynamic)$/,
    why: ANOTHER_REQUEST,
  },
  {
    path: /^(discount|gift|loyalty_card|voucher\.(discount|loyalty_card)|gift\.(effect|subtracted_amount)|redemption\.redeemed_(amount|points)|parameters(\.product)?|reward\.parameters\.(product|campaign)|data\[\d+\]\.parameters(\.product)?|data\[\d+\]\.reward\.parameters\.product|publications\[\d+\]\.voucher\.(discount|loyalty_card))$/,
    why: ANOTHER_REQUEST,
  },
  {
    ops: /^GET \/v1\/(redemptions\/\{redemptionId\}|vouchers\/\{code\}\/redemption)$/,
    path: /^(redemption_entries\[\d+\]\.)?voucher\./,
    why: "kept for now: a stored redemption record embeds the short voucher (id, code, campaign, campaign_id, object); the reference's records embed a larger snapshot (dates, validity, discount/gift/loyalty_card, assets), or (older entries) {id, code, campaign_id}. The redeem, reward redemption and rollback answers embed the whole voucher; what every record stores is left to the leaner redemption record's work",
  },
  {
    op: 'GET /v1/redemptions',
    path: /^redemptions\[\d+\]\.(voucher|reward|loyalty_card|promotion_tier|order)$/,
    why: "the listed redemption is the world's latest, a reward redemption of a loyalty card; the example's a promotion tier's",
  },
  {
    ops: /^POST \/v1\/loyalties\/(\{campaignId\}\/)?members\/\{memberId\}\/redemption$/,
    path: /^voucher\.(applicable_to|inapplicable_to)$/,
    kinds: ['absent'],
    why: "kept: the recorded card lists applicable_to and inapplicable_to, which the reference's Redemption voucher schema does not name; promo embeds the card as GET /v1/vouchers/{code} answers it, with its holder",
  },
  {
    ops: /^POST \/v1\/loyalties\/(\{campaignId\}\/)?members\/\{memberId\}\/redemption$/,
    path: /^reward\.(parameters\.coin|updated_at|voucher|metadata)$/,
    why: "the example's reward is a CAMPAIGN (or COIN) reward, changed since its creation, that gave a card; the world's is a MATERIAL reward with metadata (a field of the reference's RedemptionRewardResult)",
  },
  {
    ops: /^(POST|GET) \/v1\/publications(\/create)?$/,
    path: /^voucher\.updated_at$/,
    kinds: ['value'],
    why: 'kept: publishing a voucher sets its updated_at (its holder changed), as every change of a voucher does; the recorded answers show null',
  },
  {
    path: /^(redemption_entries\[\d+\]\.)?customer\.(name|email)$/,
    why: "the example's customer had no name or email; ours has",
  },
  {
    op: 'GET /v1/campaigns',
    path: /^campaigns\[\d+\]\.(voucher|promotion)$/,
    why: "the listed campaign is the world's promotion campaign, the example's a coupon campaign",
  },
  {
    op: 'GET /v1/campaigns/{campaignId}',
    path: /^updated_at$/,
    why: "the world's campaign was changed after its creation (vouchers added, a rule assigned); the example's was not",
  },
  { op: 'PUT /v1/campaigns/{campaignId}', path: /^voucher\.(discount|loyalty_card)$/, why: ANOTHER_REQUEST },
  {
    path: /(^|\.)validation_rule_assignments$/,
    kinds: ['value'],
    why: 'kept: a tier answers its rule assignments as a list (empty when none), as GET /v1/promotions/tiers/{id} does',
  },
  {
    path: /(^|\.)campaign_id$/,
    kinds: ['value'],
    why: 'kept: a tier answers the campaign it belongs to; the recorded tier answers predate that field',
  },
  {
    ops: /\/rewards|\/reward-assignments\/\{assignmentId\}\/reward$/,
    path: /^(data\[\d+\]\.)?metadata$/,
    kinds: ['null', 'value'],
    why: "set by the request or not: a reward answers metadata null when none was given, as the reference's recorded rewards do; the example's reward had some, or the world's has",
  },
  {
    ops: /redemption/,
    path: /^((redemption_entries|redemptions)\[\d+\]\.)?metadata$/,
    kinds: ['null'],
    why: "kept: a redemption given no metadata answers null, as the reference's newer recorded redemptions (2023: reward redemptions, rollbacks) do; these older ones (2022) answer {}, or the example's request set some",
  },
  {
    op: 'GET /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}',
    path: /^metadata$/,
    kinds: ['extra'],
    why: "a field of the reference's own EarningRule schema that this older recorded answer does not show",
  },
  {
    path: /^redeemables(\.data)?\[\d+\]\.(metadata|campaign_name|validation_rules_assignments)$|^redeemables\.data\[\d+\]\.order\.(customer|metadata)$|^order\.customer$/,
    why: 'the example asked for options.expand (redeemable, category, order); this request does not',
  },
  {
    path: /\.?order\.(source_id|status|created_at|updated_at|metadata)$|^redeemables\[\d+\]\.order\.(source_id|status|created_at|updated_at)$/,
    why: "kept: a validation's calculated order carries the order object's own fields (the reference's OrderCalculated lists them)",
  },
  {
    op: 'POST /v1/validations',
    path: /^id$/,
    why: "the validation id is the reference's documented valid_ id",
  },
  {
    path: /^stacking_rules\./,
    why: "a field of the reference's stacking rules object that this older recorded answer does not show",
  },
  {
    path: /details\.(destination_voucher|order|earning_rule|event|redemption|reward)$/,
    why: "the transactions listed are the world's (a balance change, an earning, a reward redemption), not the example's (a transfer, an accrual)",
  },
  {
    ops: /earning-rules\/\{earningRuleId\}\/(enable|disable)$/,
    path: /^validation_rule_id$/,
    kinds: ['extra'],
    why: 'kept: the recorded enable/disable answers leave validation_rule_id out while every recorded read answers it (null when none); promo answers it as the reads do',
  },
  {
    path: /(^|\.)redeemed$/,
    kinds: ['value', 'other'],
    why: "the world's reward was redeemed once (redeemed 1); the example's never (null), or once, recorded as the text \"1\" where the reference's Reward schema has an integer",
  },
  {
    path: /\.?items\[\d+\]\.(id|product_id|discount_amount|product\.(name|id|source_id|metadata))$/,
    why: "the example's items named catalog products by source_id with inline data; ours are linked to a stored product (the leniency work decides the catalog link)",
  },
  {
    op: 'GET /v1/orders',
    path: /^orders\[\d+\]\.(discount_amount|items_discount_amount|total_discount_amount|redemptions)$/,
    why: "the example's order was redeemed; the listed one was not",
  },
  {
    op: 'GET /v1/customers/{customerId}',
    path: /^assets$/,
    why: 'kept: promo has no hosted cockpit, so the customer has no assets (the activity view answers assets {})',
  },
  {
    op: 'GET /v1/customers',
    path: /^customers\[\d+\]\.loyalty\.campaigns$/,
    why: 'the listed customer belongs to no loyalty program',
  },
  {
    op: 'POST /v1/validation-rules',
    path: /^rules\.1\.rules$|^applicable_to\.included\[\d+\]\.strict$/,
    why: "kept: the create answer is the rule as given: the reference's newer create answer adds strict: false to each included item; the example's rule had nested rules",
  },
  {
    op: 'POST /v1/validation-rules',
    path: /^assignments_count$/,
    kinds: ['extra'],
    why: "kept: the create answer counts nothing yet (assignments_count null, issue 27's record of the create answer); this placeholder example leaves it out",
  },
  {
    ops: /^(GET|PUT) \/v1\/validation-rules\/\{validationRuleId\}$/,
    path: /^assignments_count$/,
    why: "the world's rule is assigned to a campaign, the example's to nothing (GET /v1/validation-rules shows assignments_count on assigned rules only)",
  },
  {
    op: 'GET /v1/products',
    path: /^products\[\d+\]\.skus\.(object|data_ref)$/,
    why: "kept: a product's skus are the reference's list object (object, data_ref, data, total), as GET /v1/products/{id} answers them",
  },
  {
    kinds: ['value'],
    keys: ['price', 'customer_id', 'updated_at'],
    why: "set by this request (a priced product, a named customer, an updated product); the example's had none",
  },
  {
    op: 'GET /v1/publications',
    path: /^publications\[\d+\]\.vouchers$/,
    why: "kept: a listed publication answers its vouchers (codes) beside voucher, as the reference's ListPublicationsItemValidSingleVoucher lists them and the SDK's PublicationResponse reads them (vouchers?: string[]); this recorded answer shows voucher only",
  },
  {
    path: /^(exports\[\d+\]\.)?(parameters\.(order|filters|response_format)|result)$/,
    why: "the example's export named an order, filters and a format, and had ended; ours names none and no runner ends it here",
  },
  {
    op: 'GET /v1/async-actions/{asyncActionId}',
    path: /^result$/,
    why: "the example's job had ended; no runner ends ours here",
  },
  { path: /^(data\[\d+\]\.)?(filter|products)$/, why: ANOTHER_REQUEST },
  {
    op: 'DELETE /v1/loyalties/{campaignId}',
    path: /^\(status\)$/,
    why: 'kept: deleting a program answers 202 with its job, as DELETE /v1/campaigns/{id} does (the reference records 200 for the same {async_action_id})',
  },
  {
    op: 'GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules',
    path: /^data\[\d+\]\.loyalty\.(calculation_type|customer|points)$/,
    why: "the example's first rule gives points in proportion to a customer metadata field; the world's gives fixed points",
  },
  {
    op: 'GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards',
    path: /^data\[\d+\]\.reward\.attributes$/,
    why: "the example's first reward is a CAMPAIGN reward (no attributes); the world's is MATERIAL, as the example's second, which has them",
  },
  {
    op: 'POST /v1/loyalties/members/{memberId}/redemption',
    path: /^order\.items\[\d+\]\.(discount_quantity|initial_quantity|applied_discount_quantity|applied_quantity|applied_quantity_amount)$/,
    kinds: ['extra'],
    why: "a field of the reference's own OrderItem schema that this older recorded answer does not show",
  },
  {
    op: 'POST /v1/loyalties/members/{memberId}/redemption',
    path: /^order\.items\[\d+\]\.(price|subtotal_amount|product\.price)$/,
    kinds: ['extra'],
    why: "the example's first item named a product without a price; the world's product has one, which the item takes",
  },

  {
    op: 'POST /management/v1/projects/{projectId}/stacking-rules',
    path: /^updated_at$/,
    kinds: ['extra'],
    why: "kept: the create answer has updated_at null, as the reference's ManagementProjectsStackingRulesCreateResponseBody lists it; the recorded create answer leaves it out",
  },
  {
    op: 'POST /management/v1/projects/{projectId}/webhooks',
    path: /^secret$/,
    kinds: ['extra'],
    why: "kept: the create answer shows the webhook's signing secret, this once (docs/webhooks.md)",
  },
  {
    op: 'GET /management/v1/projects/{projectId}/webhooks/{webhookId}',
    path: /^deliveries$/,
    kinds: ['extra'],
    why: 'kept: a webhook read by id lists its last 10 deliveries, newest first (docs/webhooks.md)',
  },
];

/** The entry that keeps one difference line of an operation, if any. */
export function keptFor(op: string, line: string): Kept | undefined {
  const kind = kindOf(line);
  const key = keyOf(line);
  const path = pathOf(line);
  return KEPT.find(
    (k) =>
      (k.op === undefined || k.op === op) &&
      (k.ops === undefined || k.ops.test(op)) &&
      (k.kinds === undefined || k.kinds.includes(kind)) &&
      (k.keys === undefined || k.keys.includes(key)) &&
      (k.path === undefined || k.path.test(path)),
  );
}
