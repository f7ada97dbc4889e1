import type { Deps } from '../../../app/deps.js';
import { isoNow } from '../../../lib/clock.js';
import { invalidPayload, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { findProgramCampaign, programRewards } from '../../rewards/index.js';
import { releaseTierMembers } from './tiers-members.service.js';
import { presentTier, type TierView } from './tiers.presenter.js';
import * as repo from './tiers.repository.js';
import { MAX_PROGRAM_TIERS, type NewTierBody, type TiersListQuery, type UpdateTierBody } from './tiers.schemas.js';
import type { Db } from '../../../db/engine.js';

type TierDeps = Pick<Deps, 'db' | 'clock'>;

interface Range {
  name: string;
  points_from: number;
  points_to: number | null;
}

const overlap = (a: Range, b: Range): boolean =>
  a.points_from <= (b.points_to ?? Number.MAX_SAFE_INTEGER) &&
  b.points_from <= (a.points_to ?? Number.MAX_SAFE_INTEGER);

const rangeText = (r: Range) => `${r.points_from}..${r.points_to ?? ''}`;

/**
 * A member's tier is the one whose points range holds its points, so the ranges of one program
 * may not overlap (the reference documents no key for this: 400 invalid_payload names both).
 */
function assertNoOverlap(ranges: Range[]): void {
  const sorted = [...ranges].sort((a, b) => a.points_from - b.points_from);
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1] as Range, sorted[i] as Range];
    if (overlap(a, b))
      throw invalidPayload(`points of tier ${b.name} (${rangeText(b)}) overlap tier ${a.name} (${rangeText(a)})`);
  }
}

/** A tier's `rewards` mapping may name only assignments of its program. */
async function assertRewardsOfProgram(
  db: Db,
  campaignId: string,
  mappings: Array<Record<string, unknown> | null | undefined>,
): Promise<void> {
  const named = mappings.flatMap((m) => Object.keys(m ?? {}));
  if (named.length === 0) return;
  const known = new Set((await programRewards(db, campaignId)).map((r) => r.assignment.id));
  const unknown = named.find((id) => !known.has(id));
  if (unknown !== undefined) throw invalidPayload(`rewards: ${unknown} is not a reward assignment of this program`);
}

/** POST /v1/loyalties/{campaignId}/tiers: every tier of the array, or none. */
export async function createTiers(deps: TierDeps, programKey: string, bodies: NewTierBody[]): Promise<TierView[]> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const program = await findProgramCampaign(trx, programKey);
    const existing = await repo.listProgramTiers(trx, program.id);
    if (existing.length + bodies.length > MAX_PROGRAM_TIERS)
      throw invalidPayload(`A program holds at most ${MAX_PROGRAM_TIERS} tiers; it has ${existing.length}`);
    const rows: repo.LoyaltyTierRow[] = bodies.map((body) => ({
      seq: 0,
      id: newId('ltr_'),
      campaign_id: program.id,
      name: body.name,
      points_from: body.points.from ?? 0,
      points_to: body.points.to ?? null,
      earning_rules: JSON.stringify(body.earning_rules ?? {}),
      rewards: JSON.stringify(body.rewards ?? {}),
      metadata: JSON.stringify(body.metadata ?? {}),
      created_at: now,
      updated_at: null,
    }));
    assertNoOverlap([...existing, ...rows]);
    await assertRewardsOfProgram(
      trx,
      program.id,
      bodies.map((b) => b.rewards),
    );
    await repo.insertTiers(
      trx,
      rows.map(({ seq: _seq, ...row }) => row),
    );
    return rows.map((row) => presentTier(row));
  });
}

/** A tier of a program (id or name), or 404. */
export async function requireTier(db: Db, programKey: string, tierId: string): Promise<repo.LoyaltyTierRow> {
  const program = await findProgramCampaign(db, programKey);
  const row = await repo.findTier(db, program.id, tierId);
  if (!row) throw notFound('loyalty_tier', tierId);
  return row;
}

/** GET /v1/loyalties/{campaignId}/tiers/{tierId}. */
export const getTier = async (deps: Pick<Deps, 'db'>, programKey: string, tierId: string): Promise<TierView> =>
  presentTier(await requireTier(deps.db, programKey, tierId));

/** GET /v1/loyalties/{campaignId}/tiers: oldest first unless `order` says otherwise. */
export async function listTiers(deps: Pick<Deps, 'db'>, programKey: string, query: TiersListQuery) {
  const program = await findProgramCampaign(deps.db, programKey);
  const sort = query.order ?? { field: 'created_at', direction: 'asc' };
  const rows = await repo.listTiers(deps.db, program.id, sort, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  return listEnvelope(
    'data',
    rows.map((row) => presentTier(row)),
    { total: await repo.countTiers(deps.db, program.id) },
  );
}

function patchOf(body: UpdateTierBody): repo.TierPatch {
  const patch: repo.TierPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.points !== undefined)
    Object.assign(patch, {
      ...(body.points.from != null ? { points_from: body.points.from } : {}),
      points_to: body.points.to ?? null,
    });
  if (body.earning_rules != null) patch.earning_rules = JSON.stringify(body.earning_rules);
  if (body.rewards != null) patch.rewards = JSON.stringify(body.rewards);
  if (body.metadata != null) patch.metadata = JSON.stringify(body.metadata);
  return patch;
}

/** PUT /v1/loyalties/{campaignId}/tiers/{tierId} (promo's own: the reference has no update). */
export async function updateTier(
  deps: TierDeps,
  programKey: string,
  tierId: string,
  body: UpdateTierBody,
): Promise<TierView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await requireTier(trx, programKey, tierId);
    const updated = { ...row, ...patchOf(body), updated_at: now } as repo.LoyaltyTierRow;
    const others = (await repo.listProgramTiers(trx, row.campaign_id)).filter((t) => t.id !== row.id);
    assertNoOverlap([...others, updated]);
    await assertRewardsOfProgram(trx, row.campaign_id, [body.rewards]);
    await repo.updateTier(trx, row.id, { ...patchOf(body), updated_at: now });
    return presentTier(updated);
  });
}

/** DELETE /v1/loyalties/{campaignId}/tiers/{tierId}: members leave it (their tier is found again at their next points change). */
export async function deleteTier(deps: TierDeps, programKey: string, tierId: string): Promise<void> {
  const now = isoNow(deps.clock);
  await deps.db.transaction().execute(async (trx) => {
    const row = await requireTier(trx, programKey, tierId);
    await releaseTierMembers(trx, row, await findProgramCampaign(trx, row.campaign_id), now);
    await repo.deleteTier(trx, row.id);
  });
}
