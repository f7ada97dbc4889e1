/**
 * The API's enumerations, defined once: schemas validate against these lists, tables and
 * services take their types from them.
 */
export const CAMPAIGN_TYPES = [
  'DISCOUNT_COUPONS',
  'GIFT_VOUCHERS',
  'LOYALTY_PROGRAM',
  'PROMOTION',
  'REFERRAL_PROGRAM',
] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

export const VOUCHER_TYPES = ['DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD'] as const;
export type VoucherType = (typeof VOUCHER_TYPES)[number];

/** The block of a voucher (and of a campaign's voucher template) that holds each type's own fields. */
export const VOUCHER_TYPE_BLOCK = {
  DISCOUNT_VOUCHER: 'discount',
  GIFT_VOUCHER: 'gift',
  LOYALTY_CARD: 'loyalty_card',
} as const satisfies Record<VoucherType, string>;
export type VoucherBlock = (typeof VOUCHER_TYPE_BLOCK)[VoucherType];

export const ORDER_STATUSES = ['CREATED', 'PAID', 'CANCELED', 'FULFILLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const JOB_STATUSES = ['ENQUEUED', 'IN_PROGRESS', 'DONE', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const OPERATION_STATUSES = ['SUCCESS', 'FAILED', 'UNKNOWN'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/**
 * Async action types (voucherify-facts 2.2) that promo runs or will run. The composition root
 * (root/job-registry.ts) maps each to its step module; services enqueue them by these names.
 */
export const JobType = {
  vouchersGenerate: 'CAMPAIGN.VOUCHERS_GENERATE',
  vouchersImport: 'CAMPAIGN.VOUCHERS_IMPORT',
  vouchersUpdate: 'CAMPAIGN.VOUCHERS_UPDATE',
  vouchersDelete: 'CAMPAIGN.VOUCHERS_DELETE',
  ordersImport: 'ORDERS.IMPORT',
  export: 'EXPORT',
  customersBulkUpdate: 'CUSTOMERS.BULK_UPDATE',
  customersMetadataUpdate: 'CUSTOMERS.METADATA_UPDATE',
  productsBulkUpdate: 'PRODUCTS.BULK_UPDATE',
  productsMetadataUpdate: 'PRODUCTS.METADATA_UPDATE',
  vouchersBulkUpdate: 'VOUCHERS.BULK_UPDATE',
  vouchersMetadataUpdate: 'VOUCHERS.METADATA_UPDATE',
  customersImportCsv: 'CUSTOMERS.IMPORT_CSV',
  productsImportCsv: 'PRODUCTS.IMPORT_CSV',
  skusImportCsv: 'SKUS.IMPORT_CSV',
  vouchersImportCsv: 'VOUCHERS.IMPORT_CSV',
  campaignVouchersImportCsv: 'CAMPAIGN.VOUCHERS_IMPORT_CSV',
  segmentSync: 'SEGMENTS.INITIAL_SYNC',
} as const;
export type JobTypeName = (typeof JobType)[keyof typeof JobType];

/** Formats of an items file (`promo import --format`): a JSON array, one JSON value per line, or CSV rows under a header. */
export const ITEM_FILE_FORMATS = ['json', 'ndjson', 'csv'] as const;
export type ItemFileFormat = (typeof ITEM_FILE_FORMATS)[number];

/** Reward types (the reference's Reward object) and the campaign types a CAMPAIGN reward may give. */
export const REWARD_TYPES = ['CAMPAIGN', 'MATERIAL', 'COIN'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];
export const REWARD_CAMPAIGN_TYPES = ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM'] as const;
export type RewardCampaignType = (typeof REWARD_CAMPAIGN_TYPES)[number];

/** Tier mappings of earning rules and rewards (the reference's LoyaltyTier): a multiplier or a custom number of points. */
export const TIER_MAPPING_TYPES = ['MULTIPLY', 'CUSTOM'] as const;
export type TierMappingType = (typeof TIER_MAPPING_TYPES)[number];

/** Earning-rule events a program's tiers fire (with the rule's `loyalty_tier`). */
export const EARNING_RULE_TIER_EVENTS = [
  'customer.loyalty.tier.joined',
  'customer.loyalty.tier.left',
  'customer.loyalty.tier.upgraded',
  'customer.loyalty.tier.downgraded',
  'customer.loyalty.tier.prolonged',
] as const;
export type EarningRuleTierEvent = (typeof EARNING_RULE_TIER_EVENTS)[number];

/** StackingRules enumerations (voucherify-facts 2.12; engine/stacking/types.ts holds the type). */
export const STACKING_APPLICATION_MODES = ['ALL', 'PARTIAL'] as const;
export const STACKING_SORTING_RULES = ['CATEGORY_HIERARCHY', 'REQUESTED_ORDER'] as const;
export const STACKING_PRODUCTS_APPLICATION_MODES = ['STACK', 'ONCE'] as const;
export const STACKING_NO_EFFECT_RULES = ['REDEEM_ANYWAY', 'SKIP'] as const;
export const STACKING_ROLLBACK_ORDER_MODES = ['WITH_ORDER', 'WITHOUT_ORDER'] as const;
export const STACKING_CALCULATION_MODES = ['INITIAL_AMOUNT', 'DISCOUNTED_AMOUNT'] as const;
/** The one value the reference's recorded rules show ("apply joint categories last"), which is what promo applies. */
export const STACKING_GROUPED_SORTING_RULES = ['JOINT_ALWAYS_LAST'] as const;
/** A promotion stack's `tiers.hierarchy_mode`: the reference knows only MANUAL. */
export const STACK_HIERARCHY_MODES = ['MANUAL'] as const;
/** Validation rules (issue 12): their types, context types and the objects they are assigned to. */
export const VALIDATION_RULE_TYPES = ['expression', 'basic', 'advanced', 'complex'] as const;
export type ValidationRuleType = (typeof VALIDATION_RULE_TYPES)[number];
export const VALIDATION_RULE_CONTEXT_TYPES = [
  'earning_rule.order.paid',
  'earning_rule.custom_event',
  'earning_rule.customer.segment.entered',
  'earning_rule.customer.tier.joined',
  'earning_rule.customer.tier.left',
  'earning_rule.customer.tier.upgraded',
  'earning_rule.customer.tier.downgraded',
  'earning_rule.customer.tier.prolonged',
  'campaign.discount_coupons',
  'campaign.discount_coupons.discount.apply_to_order',
  'campaign.discount_coupons.discount.apply_to_items',
  'campaign.discount_coupons.discount.apply_to_items_proportionally',
  'campaign.discount_coupons.discount.apply_to_items_proportionally_by_quantity',
  'campaign.discount_coupons.discount.apply_to_items_by_quantity',
  'campaign.discount_coupons.discount.fixed.apply_to_items',
  'campaign.discount_coupons.discount.percent.apply_to_items',
  'campaign.gift_vouchers',
  'campaign.gift_vouchers.gift.apply_to_order',
  'campaign.gift_vouchers.gift.apply_to_items',
  'campaign.referral_program',
  'campaign.referral_program.discount.apply_to_order',
  'campaign.referral_program.discount.apply_to_items',
  'campaign.referral_program.discount.apply_to_items_proportionally',
  'campaign.referral_program.discount.apply_to_items_proportionally_by_quantity',
  'campaign.referral_program.discount.apply_to_items_by_quantity',
  'campaign.referral_program.discount.fixed.apply_to_items',
  'campaign.referral_program.discount.percent.apply_to_items',
  'campaign.promotion',
  'campaign.promotion.discount.apply_to_order',
  'campaign.promotion.discount.apply_to_items',
  'campaign.promotion.discount.apply_to_items_proportionally',
  'campaign.promotion.discount.apply_to_items_proportionally_by_quantity',
  'campaign.promotion.discount.apply_to_items_by_quantity',
  'campaign.promotion.discount.fixed.apply_to_items',
  'campaign.promotion.discount.percent.apply_to_items',
  'campaign.loyalty_program',
  'voucher.discount_voucher',
  'voucher.discount_voucher.discount.apply_to_order',
  'voucher.discount_voucher.discount.apply_to_items',
  'voucher.discount_voucher.discount.apply_to_items_proportionally',
  'voucher.discount_voucher.discount.apply_to_items_proportionally_by_quantity',
  'voucher.discount_voucher.discount.apply_to_items_by_quantity',
  'voucher.discount_voucher.discount.fixed.apply_to_items',
  'voucher.discount_voucher.discount.percent.apply_to_items',
  'voucher.gift_voucher',
  'voucher.gift_voucher.gift.apply_to_order',
  'voucher.gift_voucher.gift.apply_to_items',
  'voucher.loyalty_card',
  'distribution.custom_event',
  'distribution.order.paid',
  'distribution.order.created',
  'distribution.order.canceled',
  'distribution.order.updated',
  'reward_assignment.pay_with_points',
  'global',
] as const;
export type ValidationRuleContextType = (typeof VALIDATION_RULE_CONTEXT_TYPES)[number];
/** What a rule may be assigned to (the reference's `distribution` is not part of promo). */
export const RULE_OBJECT_TYPES = [
  'voucher',
  'campaign',
  'promotion_tier',
  'earning_rule',
  'reward_assignment',
] as const;
export type RuleObjectType = (typeof RULE_OBJECT_TYPES)[number];
/** Redemption records (the reference's Redemption object; voucherify-facts 1.16, 2.6): what the redemption list holds. */
export const REDEMPTION_OBJECTS = ['redemption', 'redemption_rollback'] as const;
export type RedemptionObjectName = (typeof REDEMPTION_OBJECTS)[number];
export const REDEMPTION_RESULTS = ['SUCCESS', 'FAILURE'] as const;
export type RedemptionResult = (typeof REDEMPTION_RESULTS)[number];
export const REDEMPTION_STATUSES = ['SUCCEEDED', 'FAILED', 'ROLLED_BACK'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];
export const REDEMPTION_RELATED_TYPES = ['voucher', 'promotion_tier', 'redemption'] as const;
export type RedemptionRelatedType = (typeof REDEMPTION_RELATED_TYPES)[number];
export const REDEMPTION_CHANNEL_TYPES = ['USER', 'API', 'AUTO_REDEEM'] as const;
export type RedemptionChannelType = (typeof REDEMPTION_CHANNEL_TYPES)[number];
export const ROLLBACK_ORDER_MODES = ['WITH_ORDER', 'WITHOUT_ORDER'] as const;
export type RollbackOrderMode = (typeof ROLLBACK_ORDER_MODES)[number];
/** Redemption list orders (the reference's "List Redemptions"), each also with a leading `-`. */
export const REDEMPTION_LIST_ORDERS = ['created_at', 'id', 'voucher_code', 'tracking_id', 'customer_id'] as const;

/** A session lock's ttl_unit (voucherify-facts 1.17 `session`). */
export const SESSION_TTL_UNITS = [
  'DAYS',
  'HOURS',
  'MINUTES',
  'SECONDS',
  'MILLISECONDS',
  'MICROSECONDS',
  'NANOSECONDS',
] as const;
export type SessionTtlUnit = (typeof SESSION_TTL_UNITS)[number];
/** A session unit's length in milliseconds. */
export const SESSION_TTL_UNIT_MS: Record<SessionTtlUnit, number> = {
  DAYS: 86_400_000,
  HOURS: 3_600_000,
  MINUTES: 60_000,
  SECONDS: 1_000,
  MILLISECONDS: 1,
  MICROSECONDS: 1e-3,
  NANOSECONDS: 1e-6,
};
/** The longest session lock: 36,500 days, so that its expiry stays a date of four-digit year. */
export const MAX_SESSION_TTL_DAYS = 36_500;
/** What POST /v1/exports exports (the reference's `exported_object`, less `publication`). */
export const EXPORTED_OBJECTS = [
  'voucher',
  'redemption',
  'customer',
  'order',
  'points_expiration',
  'voucher_transactions',
] as const;
export type ExportedObject = (typeof EXPORTED_OBJECTS)[number];

/** An export's status (the reference's Export object). */
export const EXPORT_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'DONE', 'ERROR'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** Publications (the reference's /v1/publications): list orders, each also with a leading `-`. */
export const PUBLICATION_LIST_ORDERS = [
  'created_at',
  'id',
  'voucher_code',
  'tracking_id',
  'customer_id',
  'channel',
] as const;
export type PublicationOrderField = (typeof PUBLICATION_LIST_ORDERS)[number];
export const PUBLICATION_RESULTS = ['SUCCESS', 'FAILURE'] as const;
export type PublicationResult = (typeof PUBLICATION_RESULTS)[number];
/** The list's `voucher_type` values (the reference's enum), and the voucher type each names. */
export const PUBLICATION_VOUCHER_TYPES = { discount: 'DISCOUNT_VOUCHER', loyalty: 'LOYALTY_CARD' } as const;
