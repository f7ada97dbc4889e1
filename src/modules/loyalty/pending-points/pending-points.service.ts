import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { isoNow } from '../../../lib/clock.js';
import { AppError, notFound } from '../../../lib/errors.js';
import { emit } from '../../events/index.js';
import { adjustPendingPoints, creditPoints } from '../../ledgers/index.js';
import { expirationOf } from '../earning/earning-expiry.rules.js';
import { requireMemberCard, type MemberCard } from '../members/member-card.service.js';
import { presentPendingPoints } from './pending-points.presenter.js';
import * as repo from './pending-points.repository.js';
import { pendingPointsId } from './pending-points-ids.rules.js';
import type { Db, Tx } from '../../../db/engine.js';

/**
 * Pending points (issue 11 point 6; voucherify-facts 1.7): points an earning rule with
 * `pending_points` gave, held back for its period. The card's loyalty_card.pending_points is
 * moved only through the ledger (adjustPendingPoints); activation credits the points through
 * the ledger's creditPoints (PENDING_POINTS_ACTIVATION). Each row ends once, ACTIVATED or
 * CANCELED, by one guarded UPDATE, so a request, the sweep of any process and an order's
 * cancel never both act on it.
 */
export type PendingDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

const DAY_MS = 86_400_000;

export interface NewPendingPoints {
  card: { id: string; campaign_id: string; holder_id: string };
  rule: { id: string; banner: string | null; pending_days: number };
  order: { id: string; source_id: string | null };
  points: number;
  /** The rule's own expiration_rules (JSON; null: the program's), applied from the activation day. */
  expirationRules: string | null;
  actor: Actor;
  at: string;
}

/** The reference's details block: the earning rule, the order and the paid-order event. */
function detailsOf(input: NewPendingPoints) {
  const eventSource = {
    channel: input.actor.channel,
    ...(input.actor.api_key ? { api_key: input.actor.api_key } : {}),
  };
  return {
    event: {
      type: 'customer.order.paid',
      group_id: input.actor.request_id,
      entity_id: input.card.holder_id,
      created_at: input.at,
      category: 'ACTION',
      event_source: eventSource,
    },
    earning_rule: { id: input.rule.id, source: { banner: input.rule.banner } },
    order: { id: input.order.id, source_id: input.order.source_id },
  };
}

async function emitPendingEvent(
  trx: Tx,
  type: 'added' | 'activated' | 'canceled',
  row: repo.PendingPointsRow,
  actor: Actor,
  at: string,
): Promise<void> {
  await emit(trx, {
    type: `customer.voucher.loyalty_card.pending_points.${type}`,
    customer_id: row.customer_id,
    data: { pending_points: presentPendingPoints(row) },
    actor,
    created_at: at,
    campaign: { id: row.campaign_id, type: 'LOYALTY_PROGRAM' },
  });
}

/** Inside the paid order's transaction: the pending row, the card's pending_points, the event. */
export async function addPendingPoints(trx: Tx, input: NewPendingPoints): Promise<repo.PendingPointsRow> {
  const row = await repo.insertPendingPoints(trx, {
    id: pendingPointsId(Date.parse(input.at)),
    voucher_id: input.card.id,
    campaign_id: input.card.campaign_id,
    customer_id: input.card.holder_id,
    order_id: input.order.id,
    earning_rule_id: input.rule.id,
    points: input.points,
    status: 'PENDING',
    activates_at: new Date(Date.parse(input.at) + input.rule.pending_days * DAY_MS).toISOString(),
    details: JSON.stringify(detailsOf(input)),
    expiration_rules: input.expirationRules,
    created_at: input.at,
    updated_at: null,
  });
  await adjustPendingPoints(trx, { voucherId: row.voucher_id, delta: row.points, at: input.at });
  await emitPendingEvent(trx, 'added', row, input.actor, input.at);
  return row;
}

/** A claimed (now ACTIVATED) row's points onto the card: pending down, balance up; MANUAL by 4.7, AUTOMATIC by the sweep. */
async function applyActivation(
  deps: PendingDeps,
  trx: Tx,
  row: repo.PendingPointsRow,
  how: { actor: Actor; at: string; operationType: 'MANUAL' | 'AUTOMATIC' },
) {
  const { actor, at } = how;
  await adjustPendingPoints(trx, { voucherId: row.voucher_id, delta: -row.points, at });
  const result = await creditPoints(deps, trx, {
    voucherId: row.voucher_id,
    amount: row.points,
    type: 'PENDING_POINTS_ACTIVATION',
    expiration: expirationOf(row, at),
    operationType: how.operationType,
    related: { order_id: row.order_id, earning_rule_id: row.earning_rule_id, pending_points_id: row.id },
    actor,
    at,
  });
  await emitPendingEvent(trx, 'activated', row, actor, at);
  return result;
}

/** The pending points of this card: 404 pending_points for an unknown id or another card's. */
async function findCardPending(trx: Tx, card: MemberCard, pendingId: string): Promise<repo.PendingPointsRow> {
  const row = await repo.findPendingPoints(trx, pendingId);
  if (!row || row.voucher_id !== card.id) throw notFound('pending_points', pendingId);
  return row;
}

/**
 * The refusal of a claim another writer won, with the row's status read again after the claim:
 * on PostgreSQL the read before it may predate the winner's commit (the claim then waited for the
 * winner's lock), and would still say PENDING.
 */
async function notPending(trx: Tx, row: repo.PendingPointsRow, verb: 'activated' | 'canceled'): Promise<AppError> {
  const status = (await repo.findPendingPoints(trx, row.id))?.status ?? row.status;
  return new AppError(
    'invalid_pending_points_state',
    `Only pending points in 'PENDING' status can be ${verb}. Current status: '${status}'.`,
  );
}

/**
 * The reference's "Activate Member Pending Points": activates one now. The balance answer: `points` activated, `total` the card's
 * lifetime points without the expired ones, `balance` after.
 */
export async function activatePendingPoints(deps: PendingDeps, memberCode: string, pendingId: string, actor: Actor) {
  const at = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const card = await requireMemberCard(trx, memberCode);
    const row = await findCardPending(trx, card, pendingId);
    const claimed = await repo.claimPendingPoints(trx, row.id, 'ACTIVATED', at);
    if (!claimed) throw await notPending(trx, row, 'activated');
    const { card: after } = await applyActivation(deps, trx, claimed, { actor, at, operationType: 'MANUAL' });
    return {
      points: claimed.points,
      total: (after.loyalty_points ?? 0) - (after.loyalty_expired_points ?? 0),
      balance: after.loyalty_balance ?? 0,
      type: 'loyalty_card' as const,
      object: 'balance' as const,
      related_object: { type: 'voucher' as const, id: card.id },
      operation_type: 'MANUAL' as const,
    };
  });
}

/** POST .../pending-points/{id}/cancel (the reference's): 204; only PENDING points can be canceled. */
export async function cancelPendingPoints(
  deps: PendingDeps,
  memberCode: string,
  pendingId: string,
  actor: Actor,
): Promise<void> {
  const at = isoNow(deps.clock);
  await deps.db.transaction().execute(async (trx) => {
    const row = await findCardPending(trx, await requireMemberCard(trx, memberCode), pendingId);
    const claimed = await repo.claimPendingPoints(trx, row.id, 'CANCELED', at);
    if (!claimed) throw await notPending(trx, row, 'canceled');
    await adjustPendingPoints(trx, { voucherId: claimed.voucher_id, delta: -claimed.points, at });
    await emitPendingEvent(trx, 'canceled', claimed, actor, at);
  });
}

/**
 * Inside the transaction of an order that became CANCELED: its PENDING points are canceled
 * (ACTIVATED ones stay: they are the card's points now).
 */
export async function cancelOrderPendingPoints(trx: Tx, orderId: string, actor: Actor, at: string): Promise<number> {
  let canceled = 0;
  for (const id of await repo.listPendingIdsOfOrder(trx, orderId)) {
    const claimed = await repo.claimPendingPoints(trx, id, 'CANCELED', at);
    if (!claimed) continue;
    await adjustPendingPoints(trx, { voucherId: claimed.voucher_id, delta: -claimed.points, at });
    await emitPendingEvent(trx, 'canceled', claimed, actor, at);
    canceled++;
  }
  return canceled;
}

/** Rows activated per sweep transaction: short write transactions beside API requests. */
export const SWEEP_BATCH = 200;

/**
 * The sweep: activates every PENDING row due by now, a batch per transaction. Exactly once
 * across processes: each row is claimed by the guarded UPDATE, and a row another process
 * claimed first is skipped. Returns how many this call activated.
 */
export async function activateDuePendingPoints(deps: PendingDeps, actor: Actor): Promise<number> {
  const at = isoNow(deps.clock);
  let activated = 0;
  for (;;) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const ids = await repo.listDuePendingIds(trx, at, SWEEP_BATCH);
      for (const id of ids) {
        const claimed = await repo.claimPendingPoints(trx, id, 'ACTIVATED', at);
        if (!claimed) continue;
        await applyActivation(deps, trx, claimed, { actor, at, operationType: 'AUTOMATIC' });
        activated++;
      }
      return ids.length;
    });
    if (done < SWEEP_BATCH) return activated;
    await yieldToRequests(); // requests waiting on the writer go between batches
  }
}
