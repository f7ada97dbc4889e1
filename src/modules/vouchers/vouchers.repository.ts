import { sql, type Selectable, type Updateable } from 'kysely';
import { keysTemplate, queryTemplate } from '../../db/query-template.js';
import { dialectOf } from '../../db/dialect.js';
import type { VoucherTable } from './vouchers.table.js';
import type { Db } from '../../db/engine.js';

export type VoucherRow = Selectable<VoucherTable> & { campaign_name: string | null };
export type VoucherPatch = Updateable<VoucherTable>;

const withCampaign = (db: Db) =>
  db
    .selectFrom('vouchers as v')
    .leftJoin('campaigns as c', 'c.id', 'v.campaign_id')
    .selectAll('v')
    .select('c.name as campaign_name')
    .where((eb) => eb.or([eb('v.campaign_id', 'is', null), eb('c.deleted_at', 'is', null)]));

// Every voucher read, validation and redemption finds its vouchers: compiled once (docs/performance.md "Hot paths").
const byCode = queryTemplate<{ code: string }, VoucherRow>((db, param) =>
  withCampaign(db).where('v.code', '=', param('code')),
);
const byId = queryTemplate<{ id: string }, VoucherRow>((db, param) => withCampaign(db).where('v.id', '=', param('id')));

/** A voucher whose campaign is live (vouchers of a campaign being deleted are gone already). */
export const findVoucherByCode = async (db: Db, code: string): Promise<VoucherRow | undefined> =>
  (await byCode(db, { code }))[0];

/** The live vouchers of these codes (those that exist), in no particular order: a request's redeemables in one read. */
export const findVouchersByCodes = keysTemplate<string, VoucherRow>((db, codes) =>
  withCampaign(db).where('v.code', 'in', codes),
);

/** A voucher (of a live campaign, or standalone) by its id. */
export const findVoucherById = async (db: Db, id: string): Promise<VoucherRow | undefined> =>
  (await byId(db, { id }))[0];

/**
 * Updates a voucher by id. A new redemption quantity below what was already redeemed is
 * refused by the guard (returns false), never written.
 */
export async function updateVoucher(db: Db, id: string, patch: VoucherPatch): Promise<boolean> {
  let query = db.updateTable('vouchers').set(patch).where('id', '=', id);
  const quantity = patch.redemption_quantity;
  if (typeof quantity === 'number') query = query.where('redeemed_quantity', '<=', quantity);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function deleteVoucher(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('vouchers').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows === 1n;
}

/** The highest seq ever used: an upper bound of the number of vouchers, read in O(1). */
export async function maxVoucherSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.max('seq').as('m'))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

/**
 * Codes matching a GLOB pattern (db/dialect.ts glob); a pattern with a fixed start is
 * answered from the code index's range.
 */
export async function countCodesMatching(db: Db, glob: string): Promise<number> {
  const row = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(dialectOf(db).glob('code', glob))
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The seq of the campaign's `n`-th voucher with seq in (after, upTo], or null when it has
 * fewer: where a portion of a job over the campaign's vouchers ends. Read from
 * vouchers_campaign_seq alone (n index entries, no row).
 */
export async function findNthCampaignVoucherSeq(
  db: Db,
  campaignId: string,
  after: number,
  upTo: number,
  n: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('vouchers')
    .select('seq')
    .where('campaign_id', '=', campaignId)
    .where('seq', '>', after)
    .where('seq', '<=', upTo)
    .orderBy('seq')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
  return row?.seq ?? null;
}

/** Deletes the campaign's vouchers with seq in (from, to] (through vouchers_campaign_seq); returns how many. */
export async function deleteCampaignVouchersInRange(
  db: Db,
  campaignId: string,
  from: number,
  to: number,
): Promise<number> {
  const result = await db
    .deleteFrom('vouchers')
    .where('campaign_id', '=', campaignId)
    .where('seq', '>', from)
    .where('seq', '<=', to)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Updates the campaign's vouchers with seq in (from, to] (through vouchers_campaign_seq); returns how many. */
export async function updateCampaignVouchersInRange(
  db: Db,
  campaignId: string,
  from: number,
  to: number,
  patch: VoucherPatch,
): Promise<number> {
  const result = await db
    .updateTable('vouchers')
    .set(patch)
    .where('campaign_id', '=', campaignId)
    .where('seq', '>', from)
    .where('seq', '<=', to)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// Every redemption claims its vouchers: compiled once (docs/performance.md "Hot paths").
const claimOne = queryTemplate<{ id: string; at: string }, { id: string }>((db, param) =>
  db
    .updateTable('vouchers')
    .set((eb) => ({ redeemed_quantity: eb('redeemed_quantity', '+', 1), updated_at: param('at') }))
    .where('id', '=', param('id'))
    // Units held by live session locks (sql/0020) are not for others.
    .where((eb) =>
      eb.or([
        eb('redemption_quantity', 'is', null),
        eb(eb('redeemed_quantity', '+', eb.ref('reserved_quantity')), '<', eb.ref('redemption_quantity')),
      ]),
    )
    .returning('id'),
);

/**
 * One more redemption of a voucher, guarded by its redemption quantity: false when the
 * quantity is used up (a lost race), nothing changed then.
 */
export async function claimRedemption(db: Db, id: string, at: string): Promise<boolean> {
  return (await claimOne(db, { id, at })).length > 0;
}

/** One redemption fewer (a rollback), guarded so the count never goes below zero. */
export async function releaseRedemption(db: Db, id: string, at: string): Promise<boolean> {
  const row = await db
    .updateTable('vouchers')
    .set((eb) => ({ redeemed_quantity: eb('redeemed_quantity', '-', 1), updated_at: at }))
    .where('id', '=', id)
    .where('redeemed_quantity', '>', 0)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The oldest voucher of a campaign that a customer holds (on the holder's index), or undefined. */
export const findHeldVoucher = (db: Db, campaignId: string, holderId: string): Promise<VoucherRow | undefined> =>
  withCampaign(db)
    .where('v.holder_id', '=', holderId)
    .where('v.campaign_id', '=', campaignId)
    .orderBy('v.created_at')
    .limit(1)
    .executeTakeFirst();
