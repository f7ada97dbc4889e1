import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { REWARD_CAMPAIGN_TYPES, type RewardType } from '../../lib/enums.js';
import { AppError, invalidPayload, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { findCampaign } from '../campaigns/index.js';
import { findCatalogEntries } from '../catalog/index.js';
import * as assignments from './assignments.repository.js';
import { presentReward, type RewardParameters, type RewardView } from './rewards.presenter.js';
import * as repo from './rewards.repository.js';
import type { CreateRewardBody, RewardParametersBody, RewardsListQuery, UpdateRewardBody } from './rewards.schemas.js';
import type { Db, Tx } from '../../db/engine.js';

export type RewardDeps = Pick<Deps, 'db' | 'clock'>;

interface Resolved {
  type: RewardType;
  parameters: RewardParameters;
  campaignId: string | null;
}

/** A CAMPAIGN reward: the campaign (id or name) must give discounts, gift credits or points; the latter two need a `balance`. */
async function resolveCampaign(db: Db, given: NonNullable<RewardParametersBody['campaign']>): Promise<Resolved> {
  const campaign = await findCampaign(db, given.id);
  const type = campaign.campaign_type;
  if (!(REWARD_CAMPAIGN_TYPES as readonly string[]).includes(type)) {
    throw invalidPayload(
      `parameters.campaign.id must name a discount, gift or loyalty campaign; ${given.id} is a ${type} campaign`,
    );
  }
  const needsBalance = type !== 'DISCOUNT_COUPONS';
  if (needsBalance && given.balance == null)
    throw invalidPayload(`parameters.campaign.balance is required for a ${type} campaign`);
  if (!needsBalance && given.balance != null)
    throw invalidPayload('parameters.campaign.balance applies only to gift and loyalty campaigns');
  const parameters = {
    campaign: { id: campaign.id, ...(needsBalance ? { balance: given.balance as number } : {}), type },
  };
  return { type: 'CAMPAIGN', parameters, campaignId: campaign.id };
}

/** A MATERIAL reward: a product (id or source id) and optionally one of its SKUs. */
async function resolveProduct(db: Db, given: NonNullable<RewardParametersBody['product']>): Promise<Resolved> {
  const skuKeys = given.sku_id == null ? [] : [given.sku_id];
  const found = await findCatalogEntries(db, {
    productIds: [given.id],
    productSourceIds: [given.id],
    skuIds: skuKeys,
    skuSourceIds: skuKeys,
  });
  const product = found.products.find((p) => p.id === given.id || p.source_id === given.id);
  if (!product) throw notFound('product', given.id);
  const sku = found.skus[0];
  if (given.sku_id != null && !sku) throw notFound('sku', given.sku_id);
  if (sku && sku.product_id !== product.id)
    throw invalidPayload(`parameters.product.sku_id ${given.sku_id} is not a SKU of product ${given.id}`);
  return { type: 'MATERIAL', parameters: { product: { id: product.id, sku_id: sku?.id ?? null } }, campaignId: null };
}

async function resolveParameters(db: Db, given: RewardParametersBody): Promise<Resolved> {
  if (given.campaign) return resolveCampaign(db, given.campaign);
  if (given.product) return resolveProduct(db, given.product);
  const coin = given.coin as NonNullable<RewardParametersBody['coin']>;
  return {
    type: 'COIN',
    parameters: { coin: { exchange_ratio: coin.exchange_ratio, points_ratio: coin.points_ratio ?? 1 } },
    campaignId: null,
  };
}

/** POST /v1/rewards. The type follows from `parameters` (its schema refuses a `type` naming another). */
export async function createReward(deps: RewardDeps, body: CreateRewardBody): Promise<RewardView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const resolved = await resolveParameters(trx, body.parameters);
    const row: repo.RewardRow = {
      seq: 0,
      id: newId('rew_'),
      name: body.name,
      type: resolved.type,
      parameters: JSON.stringify(resolved.parameters),
      campaign_id: resolved.campaignId,
      reserved: 0,
      stock: body.stock ?? null,
      redeemed: null,
      attributes: JSON.stringify(attributesOf(body.attributes)),
      metadata: JSON.stringify(body.metadata ?? null),
      created_at: now,
      updated_at: null,
    };
    const { seq: _seq, ...insert } = row;
    await repo.insertReward(trx, insert);
    return presentReward(row);
  });
}

/** The attributes given, without null fields. */
const attributesOf = (given: CreateRewardBody['attributes']): Record<string, string> =>
  Object.fromEntries(
    Object.entries(given ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

/** The reward behind a path id, or 404. */
export async function requireReward(db: Db, id: string): Promise<repo.RewardRow> {
  const row = await repo.findRewardById(db, id);
  if (!row) throw notFound('reward', id);
  return row;
}

/** GET /v1/rewards/{id}. */
export const getReward = async (deps: Pick<Deps, 'db'>, id: string): Promise<RewardView> =>
  presentReward(await requireReward(deps.db, id));

async function patchOf(trx: Tx, row: repo.RewardRow, body: UpdateRewardBody): Promise<repo.RewardPatch> {
  const patch: repo.RewardPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.type !== undefined && body.type !== row.type)
    throw invalidPayload(`type cannot change: the reward is a ${row.type} reward`);
  if (body.parameters != null) {
    const resolved = await resolveParameters(trx, body.parameters);
    if (resolved.type !== row.type)
      throw invalidPayload(`parameters must keep the reward's type: it is a ${row.type} reward`);
    patch.parameters = JSON.stringify(resolved.parameters);
    patch.campaign_id = resolved.campaignId;
  }
  if (body.attributes != null) patch.attributes = JSON.stringify(attributesOf(body.attributes));
  if (body.metadata != null) patch.metadata = JSON.stringify(body.metadata);
  return patch;
}

/** PUT /v1/rewards/{id}: the fields given change. The stock never drops below what was redeemed. */
export async function updateReward(deps: RewardDeps, id: string, body: UpdateRewardBody): Promise<RewardView> {
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const row = await requireReward(trx, id);
    await repo.updateReward(trx, id, { ...(await patchOf(trx, row, body)), updated_at: now });
    if (body.stock !== undefined && !(await repo.setRewardStock(trx, id, body.stock, now))) {
      throw invalidPayload(`stock must be at least the ${row.redeemed ?? 0} already redeemed`);
    }
    return presentReward(await requireReward(trx, id));
  });
}

/** DELETE /v1/rewards/{id}: the reward and its assignments. */
export async function deleteReward(deps: Pick<Deps, 'db'>, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireReward(trx, id);
    await repo.deleteReward(trx, id);
  });
}

/** GET /v1/rewards: creation order; `assignment_id` narrows it to that assignment's reward. */
export async function listRewards(deps: Pick<Deps, 'db'>, query: RewardsListQuery) {
  if (query.assignment_id !== undefined) {
    const assignment = await assignments.findAssignmentById(deps.db, query.assignment_id);
    const row = assignment && (await repo.findRewardById(deps.db, assignment.reward_id));
    const rows = row && query.page === 1 ? [row] : [];
    return listEnvelope('data', rows.map(presentReward), { total: row ? 1 : 0 });
  }
  const rows = await repo.listRewards(deps.db, { limit: query.limit, offset: (query.page - 1) * query.limit });
  return listEnvelope('data', rows.map(presentReward), { total: await repo.countRewards(deps.db) });
}

/**
 * Takes one unit of a reward's stock inside the caller's transaction (a redemption of the
 * reward): one guarded statement, so concurrent redemptions never oversell. 404 for an unknown
 * reward, 400 reward_out_of_stock when every unit is taken; nothing changes then.
 */
export async function claimRewardStock(_deps: Pick<Deps, 'clock'>, trx: Tx, rewardId: string): Promise<RewardView> {
  const row = await repo.claimRewardUnit(trx, rewardId);
  if (row) return presentReward(row);
  await requireReward(trx, rewardId);
  throw new AppError('reward_out_of_stock', `Reward ${rewardId} has no stock left`);
}

/**
 * Gives back the unit a redemption took (its rollback), inside the caller's transaction, in one
 * guarded statement. A reward deleted since has no stock to give back: nothing changes then.
 */
export async function releaseRewardStock(trx: Tx, rewardId: string): Promise<void> {
  await repo.releaseRewardUnit(trx, rewardId);
}
