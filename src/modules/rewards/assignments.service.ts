import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { duplicateFound, invalidPayload, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { findCampaign, type CampaignRow } from '../campaigns/index.js';
import * as repo from './assignments.repository.js';
import { assignRulesTo, removeAssignmentsOf } from '../validation-rules/index.js';
import type {
  AssignmentItemBody,
  AssignmentParametersBody,
  CreateRewardAssignmentBody,
  ProgramAssignmentsQuery,
  RewardAssignmentsQuery,
  UpdateAssignmentBody,
} from './assignments.schemas.js';
import {
  presentRewardAssignment,
  presentReward,
  type RewardAssignmentView,
  type RewardView,
} from './rewards.presenter.js';
import { findRewardsByIds, type RewardRow } from './rewards.repository.js';
import { requireReward } from './rewards.service.js';
import type { Db, Tx } from '../../db/engine.js';

type AssignmentDeps = Pick<Deps, 'db' | 'clock'>;

/** A loyalty program by id or name; any other campaign is not one (404). */
export async function findProgramCampaign(db: Db, idOrName: string): Promise<CampaignRow> {
  const campaign = await findCampaign(db, idOrName);
  if (campaign.campaign_type !== 'LOYALTY_PROGRAM') throw notFound('campaign', idOrName);
  return campaign;
}

/**
 * The points cost a reward's assignment takes: required for every reward but COIN, which has
 * none. Without `parameters.loyalty` at all the refusal names it, as create-reward-assignment
 * marks it required; with it but without points, it names the points.
 */
function costOf(
  reward: RewardRow,
  parameters: AssignmentParametersBody,
  label: string,
): { points: number | null; auto_redeem: number | null } {
  const points = parameters?.loyalty?.points ?? null;
  const autoRedeem = parameters?.loyalty?.auto_redeem;
  if (reward.type === 'COIN' && points !== null)
    throw invalidPayload(`${label}.loyalty.points: a COIN reward has no points cost`);
  if (reward.type !== 'COIN' && parameters?.loyalty == null) throw invalidPayload(`${label}.loyalty is required`);
  if (reward.type !== 'COIN' && points === null) throw invalidPayload(`${label}.loyalty.points is required`);
  return { points, auto_redeem: autoRedeem == null ? null : Number(autoRedeem) };
}

/** One assignment to make: its reward, body fields, and where the body put them (`[0].` in a bulk body). */
type AssignItem = { reward: RewardRow; parameters: AssignmentParametersBody; at: string; rules?: string[] | null };

/**
 * A COIN (pay with points) reward's assignment takes at most one validation rule: the
 * reference gives its body one rule id (like a promotion tier's validation_rules, maxItems 1),
 * since the rule decides which orders the points may pay for.
 */
function checkCoinRules({ reward, rules, at }: AssignItem): void {
  if (reward.type === 'COIN' && (rules?.length ?? 0) > 1)
    throw invalidPayload(`${at}validation_rules must hold at most 1 validation rule id for a COIN reward`);
}

/** Inserts assignments of rewards into one program, refusing any reward it (or the batch) already holds. */
async function assign(trx: Tx, campaignId: string, items: AssignItem[], now: string) {
  items.forEach(checkCoinRules);
  const seen = new Set<string>();
  for (const { reward } of items) {
    if (seen.has(reward.id)) throw duplicateFound('reward_assignment', 'reward', reward.id);
    seen.add(reward.id);
  }
  const taken = await repo.findAssignmentsOfRewards(trx, campaignId, [...seen]);
  if (taken[0]) throw duplicateFound('reward_assignment', 'reward', taken[0].reward_id);
  const rows: repo.RewardAssignmentRow[] = items.map(({ reward, parameters, at }) => ({
    seq: 0,
    id: newId('rewa_'),
    reward_id: reward.id,
    campaign_id: campaignId,
    ...costOf(reward, parameters, `${at}parameters`),
    created_at: now,
    updated_at: null,
  }));
  await repo.insertRewardAssignmentRows(
    trx,
    rows.map(({ seq: _seq, ...row }) => row),
  );
  // The body's validation_rules become assignments of the new reward assignment, in this transaction.
  for (const [i, { rules }] of items.entries()) {
    if (rules?.length)
      await assignRulesTo(trx, { type: 'reward_assignment', id: (rows[i] as repo.RewardAssignmentRow).id }, rules, now);
  }
  return rows.map(presentRewardAssignment);
}

/** POST /v1/loyalties/{campaignId}/rewards: every assignment of the array, or none of them. */
export async function assignRewards(
  deps: AssignmentDeps,
  programKey: string,
  items: AssignmentItemBody[],
): Promise<RewardAssignmentView[]> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const program = await findProgramCampaign(trx, programKey);
    const rewards = new Map(
      (
        await findRewardsByIds(
          trx,
          items.map((item) => item.reward),
        )
      ).map((r) => [r.id, r]),
    );
    const resolved = items.map((item, i) => {
      const reward = rewards.get(item.reward);
      if (!reward) throw notFound('reward', item.reward);
      return { reward, parameters: item.parameters, at: `[${i}].`, rules: item.validation_rules };
    });
    return assign(trx, program.id, resolved, now);
  });
}

/** POST /v1/rewards/{rewardId}/assignments. */
export async function assignReward(
  deps: AssignmentDeps,
  rewardId: string,
  body: CreateRewardAssignmentBody,
): Promise<RewardAssignmentView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const reward = await requireReward(trx, rewardId);
    const program = await findProgramCampaign(trx, body.campaign);
    const [created] = await assign(
      trx,
      program.id,
      [{ reward, parameters: body.parameters, at: '', rules: body.validation_rules }],
      now,
    );
    return created as RewardAssignmentView;
  });
}

/** Where an assignment is addressed: under its program (id or name) or under its reward. */
export type AssignmentScope = { program: string } | { reward: string };

async function requireAssignment(
  db: Db,
  scope: AssignmentScope,
  assignmentId: string,
): Promise<repo.RewardAssignmentRow> {
  const owner =
    'program' in scope ? (await findProgramCampaign(db, scope.program)).id : (await requireReward(db, scope.reward)).id;
  const row = await repo.findAssignmentById(db, assignmentId);
  if (!row || ('program' in scope ? row.campaign_id : row.reward_id) !== owner)
    throw notFound('reward_assignment', assignmentId);
  return row;
}

/** GET of one assignment, by program or by reward. */
export const getAssignment = async (
  deps: Pick<Deps, 'db'>,
  scope: AssignmentScope,
  assignmentId: string,
): Promise<RewardAssignmentView> => presentRewardAssignment(await requireAssignment(deps.db, scope, assignmentId));

/** get-reward-details (the SDK's loyalties.getRewardDetails): the reward an assignment of the program gives, as GET /v1/rewards/{id}. */
export const getAssignedReward = async (
  deps: Pick<Deps, 'db'>,
  program: string,
  assignmentId: string,
): Promise<RewardView> =>
  presentReward(await requireReward(deps.db, (await requireAssignment(deps.db, { program }, assignmentId)).reward_id));

/** PUT of an assignment ("Update Campaign Reward Assignment"): its points cost; an unknown assignment is 404. */
export async function updateAssignment(
  deps: AssignmentDeps,
  scope: AssignmentScope,
  assignmentId: string,
  body: UpdateAssignmentBody,
): Promise<RewardAssignmentView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await requireAssignment(trx, scope, assignmentId);
    const reward = await requireReward(trx, row.reward_id);
    const loyalty = body.parameters?.loyalty;
    const cost = costOf(
      reward,
      { loyalty: { points: loyalty?.points ?? row.points, auto_redeem: loyalty?.auto_redeem } },
      'parameters',
    );
    const patch = { points: cost.points, auto_redeem: cost.auto_redeem ?? row.auto_redeem, updated_at: now };
    await repo.updateAssignment(trx, row.id, patch);
    return presentRewardAssignment({ ...row, ...patch });
  });
}

/** DELETE of an assignment, by program or by reward. */
export async function deleteRewardAssignmentRow(
  deps: Pick<Deps, 'db'>,
  scope: AssignmentScope,
  assignmentId: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await requireAssignment(trx, scope, assignmentId);
    await repo.deleteRewardAssignmentRow(trx, row.id);
    await removeAssignmentsOf(trx, [row.id]);
  });
}

/** GET /v1/loyalties/{campaignId}/rewards: the program's assignments; `assignment_id` narrows to that one. */
export async function listProgramAssignments(
  deps: Pick<Deps, 'db'>,
  programKey: string,
  query: ProgramAssignmentsQuery,
) {
  const program = await findProgramCampaign(deps.db, programKey);
  if (query.assignment_id !== undefined) {
    const row = await repo.findAssignmentById(deps.db, query.assignment_id);
    const match = row?.campaign_id === program.id ? [row] : [];
    return listEnvelope('data', (query.page === 1 ? match : []).map(presentRewardAssignment), { total: match.length });
  }
  const by = { campaignId: program.id };
  const rows = await repo.listRewardAssignmentRows(deps.db, by, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  return listEnvelope('data', rows.map(presentRewardAssignment), {
    total: await repo.countRewardAssignments(deps.db, by),
  });
}

/** GET /v1/rewards/{rewardId}/assignments. */
export async function listRewardAssignments(deps: Pick<Deps, 'db'>, rewardId: string, query: RewardAssignmentsQuery) {
  const by = { rewardId: (await requireReward(deps.db, rewardId)).id };
  const rows = await repo.listRewardAssignmentRows(deps.db, by, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  return listEnvelope('data', rows.map(presentRewardAssignment), {
    total: await repo.countRewardAssignments(deps.db, by),
  });
}

/**
 * A program's assignments with their rewards, as the API shows them, in creation order: all
 * of them, or those of the given ids (a tier's rewards, "List Loyalty Tier Rewards").
 */
export async function programRewards(
  db: Db,
  campaignId: string,
  assignmentIds?: readonly string[],
): Promise<Array<{ reward: RewardView; assignment: RewardAssignmentView }>> {
  let rows = await repo.listRewardAssignmentRows(db, { campaignId });
  if (assignmentIds) rows = rows.filter((row) => assignmentIds.includes(row.id));
  const rewards = new Map(
    (await findRewardsByIds(db, [...new Set(rows.map((row) => row.reward_id))])).map((r) => [r.id, r]),
  );
  return rows.map((row) => ({
    reward: presentReward(rewards.get(row.reward_id) as RewardRow),
    assignment: presentRewardAssignment(row),
  }));
}

/** Whether a reward assignment with this id exists (validation rule assignments name it by id alone). */
export const rewardAssignmentExists = async (db: Db, id: string): Promise<boolean> =>
  (await repo.findAssignmentById(db, id)) !== undefined;
/** For redemptions: the reward assigned to this program, with its assignment, or undefined (two indexed reads). */
export async function findProgramReward(
  db: Db,
  campaignId: string,
  rewardId: string,
): Promise<{ reward: RewardView; assignment: RewardAssignmentView } | undefined> {
  const [row] = await repo.findAssignmentsOfRewards(db, campaignId, [rewardId]);
  if (!row) return undefined;
  const [reward] = await findRewardsByIds(db, [rewardId]);
  return reward && { reward: presentReward(reward), assignment: presentRewardAssignment(row) };
}
