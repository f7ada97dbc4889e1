import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { notFound } from '../../../lib/errors.js';
import { requireLedgerCard } from '../../ledgers/index.js';
import type { MemberRewardBody } from './legacy.schemas.js';
import { redeemStackable } from '../pipeline/redeem.service.js';

type RedeemDeps = Parameters<typeof redeemStackable>[0] & Pick<Deps, 'db'>;

/**
 * redeem-reward (POST /v1/loyalties/[{campaignId}/]members/{memberId}/redemption; the SDK's
 * `loyalties.redeemReward`): the stackable redemption of the one card with its `reward`
 * (`{id, points}`), for the card's holder, with the body's `order` and `metadata`. Answers
 * that redemption (the stackable answer's one child); a refusal is the stackable 400 with
 * its failed redemption. Unknown card, or a card of another program: 404.
 */
export async function redeemMemberReward(
  deps: RedeemDeps,
  actor: Actor,
  card: { code: string; campaign?: string },
  body: MemberRewardBody,
) {
  const found = await requireLedgerCard(deps.db, card.code, card.campaign);
  if (found.type !== 'LOYALTY_CARD') throw notFound('voucher', card.code);
  const stackable = {
    redeemables: [{ object: 'voucher' as const, id: found.code, reward: body.reward }],
    ...(found.holder_id === null ? {} : { customer: { id: found.holder_id } }),
    ...(body.order === undefined ? {} : { order: body.order }),
    ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
  };
  return (await redeemStackable(deps, actor, stackable)).redemptions[0];
}
