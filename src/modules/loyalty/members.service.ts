import type { Kysely } from 'kysely';
import type { Deps } from '../../app/deps.js';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { getCampaign } from '../campaigns/campaigns.service.js';
import { addLoyaltyPoints } from '../customers/customer-summary.service.js';
import { findSimpleCustomer, getCustomer, upsertCustomer } from '../customers/customers.service.js';
import { emit } from '../events/events.service.js';
import { assignCardHolder } from '../ledgers/index.js';
import { addVouchersInTransaction } from '../vouchers/voucher-generation.service.js';
import type { VoucherView } from '../vouchers/vouchers.presenter.js';
import { getVoucher } from '../vouchers/vouchers.service.js';
import { presentPublication, presentSimpleCampaign } from './members.presenter.js';
import type { AddMemberBody } from './members.schemas.js';
import * as repo from './members.repository.js';
import { findProgram, type LoyaltyProgram } from './programs.service.js';

type Db = Kysely<Database>;
type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;
type ClaimDeps = Pick<Deps, 'seams'>;

/** What add-member did with the card: claimed it for the customer now, or found it theirs already. */
interface Picked {
  id: string;
  code: string;
  /** The card's balance when claimed (undefined: the customer held it already, nothing changed). */
  claimedBalance?: number;
}

/**
 * Gives the free card its holder: the ledgers' guarded claim (`... WHERE holder_id IS NULL`),
 * which also moves the card's balance into the customer's loyalty points. Undefined when the
 * card had a holder already.
 */
async function claim(deps: ClaimDeps, trx: Db, card: { id: string; code: string }, customerId: string, who: { actor: Actor; at: string }): Promise<Picked | undefined> {
  try {
    const claimed = await assignCardHolder(deps, trx, { voucherId: card.id, customerId, at: who.at, actor: who.actor });
    await repo.countPublication(trx, card.id);
    return { id: card.id, code: card.code, claimedBalance: claimed.loyalty_balance ?? 0 };
  } catch (error) {
    if (error instanceof AppError && error.key === 'invalid_voucher') return undefined;
    throw error;
  }
}

/** The card the body names: a card of this program that is free or the customer's already. */
async function namedCard(deps: ClaimDeps, trx: Db, program: LoyaltyProgram, customerId: string, code: string, who: { actor: Actor; at: string }): Promise<Picked> {
  const card = await repo.findCardByCode(trx, code);
  if (!card) throw notFound('voucher', code);
  if (card.campaign_id !== program.id) {
    throw new AppError('invalid_voucher', `Voucher ${code} is not a loyalty card of program ${program.id}`);
  }
  if (card.holder_id === customerId) return { id: card.id, code };
  const claimed = card.holder_id === null ? await claim(deps, trx, card, customerId, who) : undefined;
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
 * else the program's oldest free card, else a new one made from the program's code_config.
 * Each claim is guarded; a card another process took meanwhile is passed over.
 */
async function anyCard(deps: ClaimDeps, trx: Db, program: LoyaltyProgram, customerId: string, who: { actor: Actor; at: string }): Promise<Picked> {
  const { actor, at } = who;
  const held = await repo.findHeldCard(trx, program.id, customerId);
  if (held) return held;
  // A card that a claim missed is no longer free, so the next look finds another one.
  for (let attempt = 0; attempt < 100; attempt++) {
    const free = await repo.findFreeCard(trx, program.id);
    if (!free) break;
    const claimed = await claim(deps, trx, free, customerId, who);
    if (claimed) return claimed;
  }
  const made = await addVouchersInTransaction(trx, program.campaign, { count: 1, body: {}, requestId: actor.request_id, now: at });
  if (!('code' in made)) throw new AppError('internal_error', 'A single card was queued as a job');
  const card = await repo.findCardByCode(trx, made.code);
  const claimed = card && (await claim(deps, trx, card, customerId, who));
  if (!claimed) throw new AppError('internal_error', `The new card ${made.code} could not be claimed`);
  return claimed;
}

/**
 * A card just published to the customer: the program appears in their loyalty.campaigns (a
 * card with points put it there already, through assignCardHolder; an empty one adds its line
 * with 0 points here, through the customers service), and the customer gets a
 * `customer.publication.succeeded` event.
 */
async function recordPublication(trx: Db, program: LoyaltyProgram, customerId: string, picked: Picked, body: AddMemberBody, actor: Actor, at: string) {
  if (picked.claimedBalance === 0) await addLoyaltyPoints(trx, { customer_id: customerId, campaign: { id: program.id, name: program.name }, points: 0, at });
  const [customer, simple, campaign, card] = await Promise.all([
    getCustomer({ db: trx }, customerId),
    findSimpleCustomer(trx, customerId),
    getCampaign({ db: trx }, program.id),
    getVoucher({ db: trx }, picked.code),
  ]);
  const publication = { id: newId('pub_'), at, customer, card, source_id: body.source_id ?? null, metadata: body.metadata ?? {}, channel: body.channel ?? actor.channel };
  await emit(trx, {
    type: 'customer.publication.succeeded',
    customer_id: customerId,
    data: { customer: simple, campaign: presentSimpleCampaign(campaign), publication: presentPublication(publication) },
    actor,
    created_at: at,
    campaign: { id: program.id, type: 'LOYALTY_PROGRAM' },
  });
}

/**
 * POST /v1/loyalties/{id or name}/members (add-member): upserts the customer and gives them a
 * card, in one transaction. Answers the card (the reference's LoyaltyMember).
 */
export async function addMember(deps: WriteDeps, programRef: string, body: AddMemberBody, actor: Actor): Promise<VoucherView> {
  const at = isoNow(deps.clock);
  const code = await deps.db.transaction().execute(async (trx) => {
    const program = await findProgram({ db: trx }, programRef);
    const { customer } = await upsertCustomer(trx, { actor, at }, body.customer);
    const picked =
      body.voucher === undefined
        ? await anyCard(deps, trx, program, customer.id, { actor, at })
        : await namedCard(deps, trx, program, customer.id, body.voucher, { actor, at });
    if (picked.claimedBalance !== undefined) await recordPublication(trx, program, customer.id, picked, body, actor, at);
    return picked.code;
  });
  return getVoucher(deps, code);
}
