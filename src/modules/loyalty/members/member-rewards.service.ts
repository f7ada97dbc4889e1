import type { Deps } from '../../../app/deps.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { oneOf, querySchema, type QueryOf } from '../../../lib/query-params.js';
import { programRewards } from '../../rewards/index.js';
import { getMember } from './members-list.service.js';

const memberRewardsParams = { affordable_only: oneOf(['true', 'false'] as const) };
export const memberRewardsQuerySchema = querySchema(memberRewardsParams);
export type MemberRewardsQuery = QueryOf<typeof memberRewardsParams>;

/**
 * list-member-rewards (GET /v1/loyalties/members/{memberId}/rewards; the SDK's
 * `loyalties.listMemberRewards`): every reward assigned to the card's program, as
 * `loyalty_reward` items at the assignment's points cost (what a redemption of it takes), in
 * the order they were assigned, with `total`. `affordable_only=true` keeps those whose cost is
 * not above the card's balance (a COIN reward, which has no points cost, while the balance is
 * above 0). The reference gives this list no pagination.
 */
export async function listMemberRewards(deps: Pick<Deps, 'db'>, code: string, query: MemberRewardsQuery) {
  const card = await getMember(deps, code);
  const balance = card.loyalty_card?.balance ?? 0;
  const affordable = (points: number | undefined): boolean => (points === undefined ? balance > 0 : points <= balance);
  const items = await programRewards(deps.db, card.campaign_id as string);
  const data = items
    .filter(({ assignment }) => query.affordable_only !== 'true' || affordable(assignment.parameters?.loyalty?.points))
    .map(({ reward, assignment }) => ({ reward, assignment, object: 'loyalty_reward' as const }));
  return listEnvelope('data', data, { total: data.length });
}
