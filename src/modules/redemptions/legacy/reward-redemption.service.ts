import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { notFound } from '../../../lib/errors.js';
import { requireLedgerCard } from '../../ledgers/index.js';
import { getVoucher } from '../../vouchers/index.js';
import type { MemberRewardBody } from './legacy.schemas.js';
import { redeemStackable } from '../pipeline/redeem.service.js';

type RedeemDeps = Parameters<typeof redeemStackable>[0] & Pick<Deps, 'db'>;

/**
 * redeem-reward (POST /v1/loyalties/[{campaignId}/]members/{memberId}/redemption; the SDK's
 * `loyalties.redeemReward`): the one card with its `reward` (`{id, points}`) redeemed as the
 * legacy calls redeem (one redemption, no parent: the order's `redemptions` entry names the
 * card and its program, as the reference's recorded answer shows it), for the card's holder,
 * with the body's `order` and `metadata`. Answers that redemption with the card whole, as GET
 * /v1/vouchers/{code} shows it after the redemption, and its `holder` (the recorded answer's `voucher`); a
 * refusal is the stackable 400 with its failed redemption. Unknown card, or a card of another
 * program: 404.
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
  const [redemption] = (await redeemStackable(deps, actor, stackable, { single: true })).redemptions;
  return { ...redemption, voucher: { ...(await getVoucher(deps, found.code)), ...holderOf(redemption?.customer) } };
}

/**
 * The card's holder is the redemption's customer, shown as the recorded answer's `voucher.holder`:
 * id, source_id, metadata (no name or email, though the customer beside it has them).
 */
function holderOf(customer: Record<string, unknown> | null | undefined) {
  if (!customer) return {};
  const { name: _name, email: _email, ...holder } = customer;
  return { holder };
}
