import type { Deps } from '../../../app/deps.js';
import {
  periodOf,
  qualificationPeriod,
  tierDates,
  tierFor,
  tierMove,
  type TierMove,
  type TierRules,
} from '../../../engine/loyalty/tiers.js';
import { AppError } from '../../../lib/errors.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { setLoyaltyTier, findSimpleCustomer } from '../../customers/index.js';
import { emit } from '../../events/index.js';
import { pointsEarnedSince, type PointsChanged } from '../../ledgers/index.js';
import { getVoucher } from '../../vouchers/index.js';
import { presentSimpleCampaign } from '../../campaigns/index.js';
import { findProgram, getProgram, type LoyaltyProgram } from '../programs/programs.service.js';
import { TIER_CHANGED, type TierChanged, type TierEventType } from './tiers-changed.seam.js';
import * as members from './tiers-members.repository.js';
import { presentTier, type TierExpiration, type TierView } from './tiers.presenter.js';
import * as repo from './tiers.repository.js';
import type { Db, Tx } from '../../../db/engine.js';

type TierDeps = Pick<Deps, 'seams'>;

/** The member's `expiration` block (the reference's LoyaltyTier `expiration`); a card without a holder has none. */
function expirationOf(row: members.MemberTierRow): TierExpiration | undefined {
  if (row.customer_id === null) return undefined;
  return {
    customer_id: row.customer_id,
    campaign_id: row.campaign_id,
    tier_id: row.tier_id,
    start_date: row.start_date,
    ...(row.expiration_date === null ? {} : { expiration_date: row.expiration_date }),
    created_at: row.created_at,
    ...(row.updated_at === null ? {} : { updated_at: row.updated_at }),
  };
}

/** A live program, or none (a card of a deleted program changes no tier). */
async function programOrNone(trx: Tx, campaignId: string): Promise<LoyaltyProgram | null> {
  try {
    return await findProgram({ db: trx }, campaignId);
  } catch (error) {
    if (error instanceof AppError && error.key === 'not_found') return null;
    throw error;
  }
}

/** The points that qualify for a tier: the balance, or what the card earned in the current period. */
async function qualifyingPoints(trx: Tx, change: PointsChanged, rules: TierRules | null): Promise<number> {
  const period = qualificationPeriod(rules);
  if (!period) return change.balance;
  return pointsEarnedSince(trx, change.voucherId, `${periodOf(period, change.at.slice(0, 10)).start}T00:00:00.000Z`);
}

const EVENT: Record<TierMove, TierEventType> = {
  joined: 'customer.loyalty.tier.joined',
  left: 'customer.loyalty.tier.left',
  upgraded: 'customer.loyalty.tier.upgraded',
  downgraded: 'customer.loyalty.tier.downgraded',
  prolonged: 'customer.loyalty.tier.prolonged',
};

interface Move {
  move: TierMove;
  before: TierView | null;
  after: TierView | null;
}

/**
 * The tier event's data (the reference's EventCustomerLoyaltyTier*): the customer, the
 * program, and the tier(s): `loyalty_tier` for joined, left and prolonged, `loyalty_tier_from`
 * for up- and downgrades, and `loyalty_tier_to` (the tier after the move) whenever there is one,
 * as the reference's base event requires. Returns the event (null: a card without a holder has none).
 */
async function emitMove(
  trx: Tx,
  change: PointsChanged,
  program: LoyaltyProgram,
  m: Move,
): Promise<TierChanged['event']> {
  if (change.customerId === null) return null;
  const customer = await findSimpleCustomer(trx, change.customerId);
  const campaign = presentSimpleCampaign(await getProgram({ db: trx }, program.id));
  const fromTo = m.move === 'upgraded' || m.move === 'downgraded';
  const data = {
    customer,
    campaign,
    ...(fromTo ? { loyalty_tier_from: m.before } : { loyalty_tier: m.after ?? m.before }),
    ...(m.after ? { loyalty_tier_to: m.after } : {}),
    created_at: change.at,
  };
  await setLoyaltyTier(trx, {
    customer_id: change.customerId,
    campaign: { id: program.id, name: program.name },
    tier_id: m.after?.id ?? null,
    at: change.at,
  });
  await emit(trx, {
    type: EVENT[m.move],
    customer_id: change.customerId,
    data,
    actor: change.actor,
    created_at: change.at,
    campaign: { id: program.id, type: 'LOYALTY_PROGRAM' },
  });
  return { type: EVENT[m.move], data };
}

/**
 * Stores a move: the card's new tier row (a prolonged tier keeps its start), or none when it
 * left every tier. Returns the tiers before and after, as events show them.
 */
async function storeMove(
  trx: Tx,
  change: PointsChanged,
  move: TierMove,
  held: members.MemberTierRow | undefined,
  heldTier: repo.LoyaltyTierRow | undefined,
  target: repo.LoyaltyTierRow | undefined,
  dates: { start_date: string; expiration_date: string | null },
) {
  const before = heldTier && held ? presentTier(heldTier, expirationOf(held)) : null;
  if (move === 'left' || !target) {
    await members.deleteMemberTier(trx, change.voucherId);
    return { before, after: null };
  }
  const row: members.MemberTierRow = {
    voucher_id: change.voucherId,
    campaign_id: target.campaign_id,
    customer_id: change.customerId,
    tier_id: target.id,
    start_date: move === 'prolonged' && held ? held.start_date : dates.start_date,
    expiration_date: dates.expiration_date,
    created_at: held?.created_at ?? change.at,
    updated_at: held ? change.at : null,
  };
  await members.saveMemberTier(trx, row);
  return { before, after: presentTier(target, expirationOf(row)) };
}

/**
 * Recomputes a card's tier after a change of its points, in that change's transaction (the
 * ledger's points seam): stores the move, sets the holder's loyalty.campaigns tier, emits the
 * tier event once and fires the tier seam. A program without tiers costs one indexed read.
 */
export async function recomputeMemberTier(deps: TierDeps, trx: Tx, change: PointsChanged): Promise<void> {
  if (change.campaignId === null) return;
  const tiers = await repo.listProgramTiers(trx, change.campaignId);
  const held = await members.findMemberTierRow(trx, change.voucherId);
  if (tiers.length === 0 && !held) return;
  const program = await programOrNone(trx, change.campaignId);
  if (!program) return;
  const rules = program.loyalty_tiers_expiration as TierRules | null;
  const today = change.at.slice(0, 10);
  const ranges = tiers.map((t) => ({ id: t.id, from: t.points_from, to: t.points_to }));
  const target = tierFor(ranges, await qualifyingPoints(trx, change, rules));
  const dates = tierDates(rules, today);
  const heldTier = held && tiers.find((t) => t.id === held.tier_id);
  const move = tierMove(
    heldTier && held ? { id: heldTier.id, from: heldTier.points_from, expiration_date: held.expiration_date } : null,
    target,
    today,
    dates.expiration_date,
  );
  if (!move) return;
  const { before, after } = await storeMove(
    trx,
    change,
    move,
    held,
    heldTier,
    tiers.find((t) => t.id === target?.id),
    dates,
  );
  const event = await emitMove(trx, change, program, { move, before, after });
  await deps.seams.fire(TIER_CHANGED, trx, {
    move,
    event,
    voucherId: change.voucherId,
    campaignId: program.id,
    customerId: change.customerId,
    tierId: after?.id ?? null,
    previousTierId: before?.id ?? null,
    actor: change.actor,
    at: change.at,
  });
}

/**
 * Before a tier is deleted: its members' customers show no tier in that program any more (their
 * member rows go with the tier; their next points change finds their tier again).
 */
export async function releaseTierMembers(
  trx: Tx,
  tier: { id: string; campaign_id: string },
  program: { name: string },
  at: string,
): Promise<void> {
  for (const customerId of new Set(await members.listTierHolders(trx, tier.id))) {
    await setLoyaltyTier(trx, {
      customer_id: customerId,
      campaign: { id: tier.campaign_id, name: program.name },
      tier_id: null,
      at,
    });
  }
}

/**
 * The tier a card is in now, with its `earning_rules` and `rewards` mappings and the member's
 * `expiration`, or null; inside the caller's transaction (earning reads a member's mapping).
 */
export async function findMemberTier(
  _deps: Pick<Deps, 'db'> | object,
  trx: Db,
  voucherId: string,
): Promise<TierView | null> {
  const held = await members.findMemberTierRow(trx, voucherId);
  const tier = held && (await repo.findTiersByIds(trx, [held.tier_id]))[0];
  return held && tier ? presentTier(tier, expirationOf(held)) : null;
}

/** GET /v1/loyalties/members/{memberId}/tiers (the reference's "List Member's Loyalty Tiers"): the card's tier, with `expiration`, and `total`. */
export async function listMemberTiers(deps: Pick<Deps, 'db'>, code: string) {
  const card = await getVoucher(deps, code);
  const tier = await findMemberTier(deps, deps.db, card.id);
  const data = tier ? [tier] : [];
  return listEnvelope('data', data, { total: data.length });
}
