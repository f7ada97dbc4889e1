import type { Deps } from '../../app/deps.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { listEnvelope } from '../../lib/pagination.js';
import { presentBucket, presentTransaction } from './ledgers.presenter.js';
import * as repo from './ledgers.repository.js';
import * as bucketsRepo from './points-buckets.repository.js';
import type { BucketsQuery, TransactionsQuery } from './ledgers.schemas.js';
import { requireLedgerCard } from './member-card.service.js';

type ReadDeps = Pick<Deps, 'db'>;

/**
 * A card's transactions (the member paths and /v1/vouchers/{code}/transactions): newest
 * first unless `order=id`, cursor-paged by `starting_after_id` (a row of this card), with
 * `has_more` and `more_starting_after`. The cursor is the row's seq, so pages never skip or
 * repeat rows however many are written meanwhile.
 */
export async function listCardTransactions(
  deps: ReadDeps,
  card: { code: string; campaign?: string },
  query: TransactionsQuery,
) {
  const found = await requireLedgerCard(deps.db, card.code, card.campaign);
  const descending = query.order?.direction !== 'asc';
  let afterSeq: number | undefined;
  if (query.starting_after_id !== undefined) {
    const cursor = await repo.findEntry(deps.db, query.starting_after_id);
    if (!cursor || cursor.voucher_id !== found.id)
      throw invalidQueryParams(`Query parameter starting_after_id names no transaction of ${found.code}`);
    afterSeq = cursor.seq;
  }
  const rows = await repo.listEntries(deps.db, found.id, { limit: query.limit + 1, afterSeq, descending });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = page.at(-1);
  return listEnvelope('data', page.map(presentTransaction), {
    has_more: hasMore,
    ...(hasMore && last ? { more_starting_after: last.id } : {}),
  });
}

/** GET /v1/loyalties/{campaignId}/members/{memberId}/points-expiration: the buckets still to expire, soonest first, with total. */
export async function listPointsExpiration(
  deps: ReadDeps,
  card: { code: string; campaign: string },
  query: BucketsQuery,
) {
  const found = await requireLedgerCard(deps.db, card.code, card.campaign);
  const buckets = await bucketsRepo.listOpenBuckets(deps.db, found.id, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  return listEnvelope('data', buckets.map(presentBucket), {
    total: await bucketsRepo.countOpenBuckets(deps.db, found.id),
  });
}
