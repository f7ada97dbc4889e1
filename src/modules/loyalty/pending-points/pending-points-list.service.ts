import type { Deps } from '../../../app/deps.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { findProgram } from '../programs/programs.service.js';
import { requireMemberCard } from '../members/member-card.service.js';
import { presentPendingPoints } from './pending-points.presenter.js';
import * as repo from './pending-points.repository.js';
import type { PendingPointsListQuery } from './pending-points.schemas.js';

type ReadDeps = Pick<Deps, 'db'>;

/**
 * A page of PENDING points (activated and canceled ones leave the lists, as the reference
 * says), newest first unless `order=id`; `starting_after_id` continues after that id in the
 * order asked. The reference's cursor envelope: `has_more`, and `more_starting_after` (the
 * last id of the page) when there is more.
 */
async function pageOf(deps: ReadDeps, owner: repo.PendingPageQuery['owner'], query: PendingPointsListQuery) {
  const rows = await repo.listPendingPage(deps.db, {
    owner,
    direction: query.order?.direction ?? 'desc',
    startingAfterId: query.starting_after_id,
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  const last = page.at(-1);
  return listEnvelope('data', page.map(presentPendingPoints), {
    has_more: more,
    ...(more && last ? { more_starting_after: last.id } : {}),
  });
}

/** GET /v1/loyalties/members/{memberId}/pending-points, and the form with the program (its card only). */
export async function listMemberPendingPoints(
  deps: ReadDeps,
  memberCode: string,
  query: PendingPointsListQuery,
  campaignRef?: string,
) {
  const card = await requireMemberCard(deps.db, memberCode, campaignRef);
  return pageOf(deps, { voucherId: card.id }, query);
}

/** GET /v1/loyalties/{campaignId}/pending-points: every member's. */
export async function listProgramPendingPoints(deps: ReadDeps, campaignRef: string, query: PendingPointsListQuery) {
  const program = await findProgram(deps, campaignRef);
  return pageOf(deps, { campaignId: program.id }, query);
}
