import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { isoNow } from '../../../lib/clock.js';
import { AppError, notFound } from '../../../lib/errors.js';
import { addLoyaltyPoints, upsertCustomer } from '../../customers/index.js';
import {
  claimVoucher,
  giveCampaignVoucher,
  recordPublication,
  type Given,
  type Who,
} from '../../publications/index.js';
import { type VoucherView, getVoucher } from '../../vouchers/index.js';
import { memberCustomerInput, type AddMemberBody } from './members.schemas.js';
import * as repo from './members.repository.js';
import { findProgram, type LoyaltyProgram } from '../programs/programs.service.js';
import type { Db, Tx } from '../../../db/engine.js';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;
type ClaimDeps = Pick<Deps, 'seams'>;

/** The card the body names: a card of this program that is free or the customer's already. */
async function namedCard(
  deps: ClaimDeps,
  trx: Tx,
  program: LoyaltyProgram,
  customerId: string,
  code: string,
  who: Who,
): Promise<Given> {
  const card = await repo.findCardByCode(trx, code);
  if (!card) throw notFound('voucher', code);
  if (card.campaign_id !== program.id) {
    throw new AppError('invalid_voucher', `Voucher ${code} is not a loyalty card of program ${program.id}`);
  }
  if (card.holder_id === customerId) return { id: card.id, code };
  const claimed = card.holder_id === null ? await claimVoucher(deps, trx, card, customerId, who) : undefined;
  if (!claimed) {
    throw new AppError('holder_assignement_duplication', `Loyalty card ${code} is already held by another customer`, {
      resource_id: code,
      resource_type: 'voucher',
    });
  }
  return claimed;
}

/**
 * A card for a customer who named none: the one they hold already (a program is joined once),
 * else the program's next free card or a new one (the publications' way of giving one).
 */
async function anyCard(
  deps: ClaimDeps,
  trx: Tx,
  program: LoyaltyProgram,
  customerId: string,
  who: Who,
): Promise<Given> {
  const held = await repo.findHeldCard(trx, program.id, customerId);
  if (held) return held;
  return giveCampaignVoucher(deps, trx, program.campaign, customerId, who, true);
}

/**
 * A card just published to the customer: the program appears in their loyalty.campaigns (a
 * card with points put it there already, through assignCardHolder; an empty one adds its line
 * with 0 points here, through the customers service), and the publication is recorded (its
 * row in GET /v1/publications and the customer's `customer.publication.succeeded` event).
 */
async function recordMemberPublication(
  deps: ClaimDeps,
  trx: Tx,
  program: LoyaltyProgram,
  customerId: string,
  picked: Given,
  body: AddMemberBody,
  who: Who,
) {
  if (picked.claimedBalance === 0)
    await addLoyaltyPoints(trx, {
      customer_id: customerId,
      campaign: { id: program.id, name: program.name },
      points: 0,
      at: who.at,
    });
  await recordPublication(deps, trx, customerId, picked, body, who);
}

/**
 * POST /v1/loyalties/{id or name}/members (add-member): upserts the customer and gives them a
 * card, in one transaction. Answers the card (the reference's LoyaltyMember).
 */
export async function addMember(
  deps: WriteDeps,
  programRef: string,
  body: AddMemberBody,
  actor: Actor,
): Promise<VoucherView> {
  const at = isoNow(deps.clock);
  const code = await deps.db.transaction().execute(async (trx) => {
    const program = await findProgram({ db: trx }, programRef);
    const { customer } = await upsertCustomer(
      trx,
      { actor, at, seams: deps.seams },
      memberCustomerInput(body.customer),
    );
    const who = { actor, at };
    const picked =
      body.voucher === undefined
        ? await anyCard(deps, trx, program, customer.id, who)
        : await namedCard(deps, trx, program, customer.id, body.voucher, who);
    if (picked.claimedBalance !== undefined)
      await recordMemberPublication(deps, trx, program, customer.id, picked, body, who);
    return picked.code;
  });
  return getVoucher(deps, code);
}
