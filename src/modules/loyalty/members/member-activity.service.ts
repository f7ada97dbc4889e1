import type { Deps } from '../../../app/deps.js';
import { limit, order, querySchema, text, type QueryOf } from '../../../lib/query-params.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { ACTIVITY_ORDER_FIELDS, listCustomerEvents, listCustomerEventsWithTotal } from '../../events/index.js';
import { getMember } from './members-list.service.js';

const memberActivityParams = { limit: limit(), order: order(ACTIVITY_ORDER_FIELDS), starting_after_id: text() };
export const memberActivityQuerySchema = querySchema(memberActivityParams);
export type MemberActivityQuery = QueryOf<typeof memberActivityParams>;

/**
 * list-member-activity (GET /v1/loyalties/[{campaignId}/]members/{memberId}/activity; the SDK's
 * `loyalties.listMemberActivity`): the card's holder's events of the card's program (points
 * added, accrued, expired, pending points, tiers, rewards, redemptions, publications),
 * newest first unless `order=created_at`, a page of `limit` with the `starting_after_id`
 * cursor, `has_more` and `more_starting_after`, as the customer's activity pages. A card
 * without a holder has none. A holder with two cards of one program sees both cards' events.
 */
export async function listMemberActivity(
  deps: Pick<Deps, 'db' | 'seams'>,
  card: { code: string; campaign?: string },
  query: MemberActivityQuery,
) {
  const member = await getMember(deps, card.code, card.campaign);
  if (member.holder_id === undefined) return listEnvelope('data', [], { has_more: false });
  return listCustomerEvents(deps, member.holder_id, { ...query, campaign_id: member.campaign_id as string });
}

/**
 * The deprecated form (GET /v1/loyalties/[{campaignId}/]members/{memberId}/activities, the SDK's
 * `loyalties.getMemberActivities`): the same events under `activities` (data_ref `activities`)
 * with `total`, as the SDK's LoyaltiesGetMemberActivitiesResponse reads them.
 */
export async function listMemberActivities(
  deps: Pick<Deps, 'db' | 'seams'>,
  card: { code: string; campaign?: string },
  query: MemberActivityQuery,
) {
  const member = await getMember(deps, card.code, card.campaign);
  const page =
    member.holder_id === undefined
      ? { ...listEnvelope('data', [], { has_more: false }), total: 0 }
      : await listCustomerEventsWithTotal(deps, member.holder_id, {
          ...query,
          campaign_id: member.campaign_id as string,
        });
  const { data, data_ref: _ref, object, ...more } = page;
  return { object, data_ref: 'activities' as const, activities: data, ...more };
}
