import type { LoadedRedeemable } from '../redemptions/index.js';
import type { Candidate, SourceName } from './qualification-candidates.service.js';
import { FILTER_FIELDS, type FilterField, type QualificationFilters } from './qualifications.schemas.js';

/**
 * options.filters (QualificationsOptionFilters) on a qualified redeemable: each field's
 * conditions ($is, $in: one of the values; $is_not, $not_in: none of them; $has_value,
 * $is_unknown), joined by `junction` (and by default). A voucher's resource_id is its id or
 * its code (a stack's, its id; its other fields are its first tier's); its campaign_type is its campaign's (a standalone voucher has none).
 */
type Conditions = NonNullable<NonNullable<QualificationFilters['code']>['conditions']>;

const VOUCHER_CAMPAIGN_TYPES: Record<string, string> = {
  DISCOUNT_VOUCHER: 'DISCOUNT_COUPONS',
  GIFT_VOUCHER: 'GIFT_VOUCHERS',
  LOYALTY_CARD: 'LOYALTY_PROGRAM',
};

function valuesOf(field: FilterField, loaded: LoadedRedeemable, candidate: Candidate): string[] {
  const { voucher, tier } = loaded;
  const campaignType = tier
    ? tier.campaign.campaign_type
    : voucher?.campaign_id
      ? voucher.is_referral_code
        ? 'REFERRAL_PROGRAM'
        : VOUCHER_CAMPAIGN_TYPES[voucher.type]
      : undefined;
  const all: Record<FilterField, Array<string | null | undefined>> = {
    resource_type: [candidate.object],
    resource_id:
      candidate.object === 'promotion_stack' ? [candidate.id] : voucher ? [voucher.id, voucher.code] : [tier?.tier.id],
    campaign_id: [voucher?.campaign_id ?? tier?.campaign.id],
    campaign_type: [campaignType],
    category_id: [voucher?.category_id ?? tier?.tier.category_id],
    voucher_type: [voucher?.type],
    code: [voucher?.code],
    holder_role: [candidate.source === 'wallet' ? 'OWNER' : null],
  };
  return all[field].filter((v): v is string => typeof v === 'string');
}

function holds(conditions: Conditions, values: string[]): boolean {
  const some = (list: readonly string[] | null | undefined) => (list ?? []).some((v) => values.includes(v));
  if (conditions.$is && !some(conditions.$is)) return false;
  if (conditions.$in && !some(conditions.$in)) return false;
  if (conditions.$is_not && some(conditions.$is_not)) return false;
  if (conditions.$not_in && some(conditions.$not_in)) return false;
  if (conditions.$has_value !== undefined && values.length === 0) return false;
  if (conditions.$is_unknown !== undefined && values.length > 0) return false;
  return true;
}

const givenFields = (filters: QualificationFilters | null | undefined) =>
  FILTER_FIELDS.flatMap((field) => {
    const conditions = filters?.[field]?.conditions;
    return conditions ? [{ field, conditions }] : [];
  });

export function passesFilters(
  filters: QualificationFilters | null | undefined,
  loaded: LoadedRedeemable,
  candidate: Candidate,
): boolean {
  const given = givenFields(filters);
  if (given.length === 0) return true;
  const results = given.map(({ field, conditions }) => holds(conditions, valuesOf(field, loaded, candidate)));
  return filters?.junction === 'or' ? results.some(Boolean) : results.every(Boolean);
}

/** The sources worth reading: with filters joined by `and`, a resource_type that rules vouchers or tiers out prunes their sources. */
export function prunedSources(sources: SourceName[], filters: QualificationFilters | null | undefined): SourceName[] {
  const conditions = filters?.resource_type?.conditions;
  if (!conditions || filters?.junction === 'or') return sources;
  const kept = {
    tiers: holds(conditions, ['promotion_tier']),
    stacks: holds(conditions, ['promotion_stack']),
    vouchers: holds(conditions, ['voucher']),
  };
  return sources.filter((s) => (s === 'tiers' || s === 'stacks' ? kept[s] : kept.vouchers));
}
