import { newestFirst, type WalkPosition } from '../../db/newest-first.js';
import type { Db } from '../../db/engine.js';

export type { WalkPosition };

/** A candidate voucher's key: its code and its place in the walk. */
export interface VoucherKey {
  code: string;
  created_at: string;
  seq: number;
}

export interface VoucherWalk {
  /** The customer whose vouchers these are; null: standalone vouchers nobody holds. */
  holderId: string | null;
  /** The page cursor (`starting_after`): only vouchers created before it. */
  createdBefore: string | null;
  after: WalkPosition | null;
  limit: number;
}

/**
 * A batch of a qualification's candidate vouchers, newest first: a customer's (walked in
 * vouchers_holder_any_created_at) or the standalone ones nobody holds (walked in
 * vouchers_campaign's NULL range). Vouchers of a deleted campaign are left out.
 */
export function listVoucherKeys(db: Db, walk: VoucherWalk): Promise<VoucherKey[]> {
  let query = db
    .selectFrom('vouchers as v')
    .leftJoin('campaigns as c', 'c.id', 'v.campaign_id')
    .select(['v.code', 'v.created_at', 'v.seq'])
    .where((eb) => eb.or([eb('v.campaign_id', 'is', null), eb('c.deleted_at', 'is', null)]));
  query =
    walk.holderId === null
      ? query.where('v.campaign_id', 'is', null).where('v.holder_id', 'is', null)
      : query.where('v.holder_id', '=', walk.holderId);
  return newestFirst(query, 'v', walk).execute();
}
