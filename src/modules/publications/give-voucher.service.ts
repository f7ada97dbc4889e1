import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { CampaignRow } from '../campaigns/index.js';
import { assignCardHolder } from '../ledgers/index.js';
import { addVouchersInTransaction, findVoucherRow } from '../vouchers/index.js';
import * as repo from './publications.repository.js';
import type { Db, Tx } from '../../db/engine.js';

/**
 * Giving a voucher to a customer: the one way a voucher gets its holder outside the ledgers'
 * own use. The holder is set by the ledgers' guarded claim (assignCardHolder: `... WHERE
 * holder_id IS NULL`, which also moves a card's balance into the customer's summary), and the
 * voucher's publish.count grows by one in the same transaction. Loyalty members
 * (POST /v1/loyalties/{id}/members) and publications both come through here.
 */
type ClaimDeps = Pick<Deps, 'seams'>;
export interface Who {
  actor: Actor;
  at: string;
}

/** A voucher just given (or given again) to the customer. */
export interface Given {
  id: string;
  code: string;
  /** The card's balance when claimed now; undefined when the customer held it already. */
  claimedBalance?: number;
}

/** Claims a free voucher for the customer; undefined when another customer holds it. */
export async function claimVoucher(
  deps: ClaimDeps,
  trx: Tx,
  voucher: { id: string; code: string },
  customerId: string,
  who: Who,
): Promise<Given | undefined> {
  try {
    const claimed = await assignCardHolder(deps, trx, {
      voucherId: voucher.id,
      customerId,
      at: who.at,
      actor: who.actor,
    });
    await repo.countPublication(trx, voucher.id);
    return { id: voucher.id, code: voucher.code, claimedBalance: claimed.loyalty_balance ?? 0 };
  } catch (error) {
    if (error instanceof AppError && error.key === 'invalid_voucher') return undefined;
    throw error;
  }
}

/** One more publication of a voucher the customer holds already. */
export async function countRepublication(trx: Tx, voucher: { id: string; code: string }): Promise<Given> {
  await repo.countPublication(trx, voucher.id);
  return { id: voucher.id, code: voucher.code };
}

/**
 * The voucher a publication names by code: free (claimed now) or the customer's already (one
 * more publication). 404 when unknown, 400 invalid_voucher when it is not of the campaign the
 * request also names, 409 holder_assignement_duplication when another customer holds it.
 */
export async function giveNamedVoucher(
  deps: ClaimDeps,
  trx: Tx,
  code: string,
  customerId: string,
  who: Who,
  campaignId?: string,
): Promise<Given> {
  const voucher = await findVoucherRow(trx, code);
  if (!voucher) throw notFound('voucher', code);
  if (campaignId !== undefined && voucher.campaign_id !== campaignId)
    throw new AppError('invalid_voucher', `Voucher ${code} is not a voucher of campaign ${campaignId}`);
  if (voucher.holder_id === customerId) return countRepublication(trx, voucher);
  const claimed = voucher.holder_id === null ? await claimVoucher(deps, trx, voucher, customerId, who) : undefined;
  if (!claimed) {
    throw new AppError('holder_assignement_duplication', `Voucher ${code} is already held by another customer`, {
      resource_id: code,
      resource_type: 'voucher',
    });
  }
  return claimed;
}

/**
 * A campaign's next free voucher for the customer, oldest first. Each claim is guarded, so a
 * voucher another request or process took meanwhile is passed over and the next one tried.
 * With none left, a new one is made from the campaign's code_config when `generate` (an
 * AUTO_UPDATE campaign's publication, a loyalty program's new member); otherwise 400
 * no_voucher_suitable_for_publication.
 */
export async function giveCampaignVoucher(
  deps: ClaimDeps,
  trx: Tx,
  campaign: CampaignRow,
  customerId: string,
  who: Who,
  generate: boolean,
): Promise<Given> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const free = await repo.findFreeVoucher(trx, campaign.id);
    if (!free) break;
    const claimed = await claimVoucher(deps, trx, free, customerId, who);
    if (claimed) return claimed;
  }
  if (!generate) {
    throw new AppError(
      'no_voucher_suitable_for_publication',
      `Campaign ${campaign.name} has no voucher left to publish`,
      { resource_id: campaign.id, resource_type: 'campaign' },
    );
  }
  const made = await addVouchersInTransaction(trx, campaign, {
    count: 1,
    body: {},
    requestId: who.actor.request_id,
    now: who.at,
  });
  const voucher = 'code' in made ? await findVoucherRow(trx, made.code) : undefined;
  const claimed = voucher && (await claimVoucher(deps, trx, voucher, customerId, who));
  if (!claimed) throw new AppError('internal_error', `The new voucher of campaign ${campaign.id} could not be claimed`);
  return claimed;
}

/**
 * `count` of a campaign's vouchers for the customer (a publication's `campaign.count`), each
 * through giveCampaignVoucher's guarded claim, in the caller's transaction: all of them, or
 * none when the campaign runs out (the refusal rolls the whole transaction back).
 */
export async function giveCampaignVouchers(
  deps: ClaimDeps,
  trx: Tx,
  campaign: CampaignRow,
  customerId: string,
  who: Who,
  generate: boolean,
  count: number,
): Promise<Given[]> {
  const given: Given[] = [];
  try {
    while (given.length < count) given.push(await giveCampaignVoucher(deps, trx, campaign, customerId, who, generate));
  } catch (error) {
    if (count === 1 || !(error instanceof AppError) || error.key !== 'no_voucher_suitable_for_publication') throw error;
    throw new AppError(
      'no_voucher_suitable_for_publication',
      `Campaign ${campaign.name} has ${given.length} of the ${count} vouchers asked for left to publish`,
      { resource_id: campaign.id, resource_type: 'campaign' },
    );
  }
  return given;
}
