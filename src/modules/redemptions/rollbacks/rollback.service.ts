import type { Deps } from '../../../app/deps.js';
import type { Actor } from '../../../lib/actor.js';
import { isoNow } from '../../../lib/clock.js';
import { AppError } from '../../../lib/errors.js';
import { timeOrderedId } from '../../../lib/ids.js';
import { getStackingRules } from '../../stacking-rules/index.js';
import {
  findRollbackTarget,
  redemptionCustomer,
  rollbackCustomer,
  RollbackRefusal,
} from './rollback-checks.service.js';
import { rollBackOnOrder } from './rollback-order.service.js';
import { failedRollbackRow, parentRollbackRow, rollbackRow, type RollbackRowContext } from './rollback-rows.rules.js';
import { announceRollback, undoChild } from './rollback-undo.service.js';
import { presentRedemption, type RedemptionObject, type RedemptionRow } from '../redemptions.presenter.js';
import type { Tx } from '../../../db/engine.js';
import { findVoucherRow, getVoucher } from '../../vouchers/index.js';
import {
  findRedemptionById,
  insertRedemptions,
  listChildRedemptions,
  markRolledBack,
} from '../redemptions.repository.js';
import type { RollbackInput } from './rollbacks.schemas.js';
import { REDEMPTIONS_ROLLED_BACK } from '../redemption.seam.js';

/**
 * POST /v1/redemptions/{id}/rollback (one redemption: a child of a stack) and
 * /v1/redemptions/{parentId}/rollbacks (a whole stack), voucherify-facts 2.6. Each runs in ONE
 * write transaction: the guarded status change (SUCCEEDED -> ROLLED_BACK, markRolledBack) lets
 * exactly one of any number of concurrent rollbacks through, and only then is anything given
 * back (undoChild), the order changed (rollBackOnOrder) and the records written. A refused
 * rollback rolls that transaction back and writes only its failed record (rrf_) and event.
 */
type RollbackDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

interface Run {
  actor: Actor;
  at: string;
  input: RollbackInput;
}

const strip = (rows: RedemptionRow[]) => rows.map(({ seq: _seq, ...row }) => row);

async function rowContext(trx: Tx, original: RedemptionRow, run: Run): Promise<RollbackRowContext> {
  const customer = await rollbackCustomer(trx, original, run.input, run);
  const mode = (await getStackingRules(trx)).redeemables_rollback_order_mode;
  return { ...run, customer, mode };
}

/** Marks one child rolled back (the guard) and gives back what it took; undefined when it was rolled back already. */
async function rollBackChild(
  deps: RollbackDeps,
  trx: Tx,
  child: RedemptionRow,
  ctx: RollbackRowContext,
): Promise<{ child: RedemptionRow; rollbackId: string } | undefined> {
  const rollbackId = timeOrderedId('rr_', ctx.at);
  const marked = await markRolledBack(trx, child.id, { id: rollbackId, date: ctx.at, rollback_order_mode: ctx.mode });
  if (!marked) return undefined;
  await undoChild(deps, trx, marked, { rollbackId, customer: ctx.customer, actor: ctx.actor, at: ctx.at });
  return { child: marked, rollbackId };
}

async function singleIn(deps: RollbackDeps, trx: Tx, id: string, run: Run): Promise<RedemptionObject> {
  const original = await findRollbackTarget(trx, id, 'single');
  const ctx = await rowContext(trx, original, run);
  const done = await rollBackChild(deps, trx, original, ctx);
  if (!done) throw new RollbackRefusal('already_rolled_back', 'Already rolled back');
  const order = await rollBackOnOrder(trx, original.order_id, {
    parentId: original.parent_id ?? original.id,
    parentRollbackId: null,
    children: [done],
    mode: ctx.mode,
    at: ctx.at,
  });
  const row = rollbackRow(done.rollbackId, done.child, order, ctx);
  await insertRedemptions(trx, strip([row]));
  await announceRollback(trx, row, done.child, ctx);
  await deps.seams.fire(REDEMPTIONS_ROLLED_BACK, trx, {
    rollbacks: [row],
    originals: [done.child],
    customer: ctx.customer,
    actor: ctx.actor,
    at: ctx.at,
  });
  return presentRedemption(row);
}

export interface StackedRollbackAnswer {
  rollbacks: RedemptionObject[];
  parent_rollback: RedemptionObject;
  order: Record<string, unknown> | null;
}

async function stackedIn(deps: RollbackDeps, trx: Tx, id: string, run: Run): Promise<StackedRollbackAnswer> {
  const original = await findRollbackTarget(trx, id, 'stacked');
  const ctx = await rowContext(trx, original, run);
  const parentRollbackId = timeOrderedId('rr_', ctx.at);
  const parent = await markRolledBack(trx, original.id, {
    id: parentRollbackId,
    date: ctx.at,
    rollback_order_mode: ctx.mode,
  });
  if (!parent) throw new RollbackRefusal('already_rolled_back', 'Already rolled back');
  // Children rolled back one by one before are skipped: their guard refuses them.
  const done = [];
  for (const child of await listChildRedemptions(trx, original.id)) {
    const rolled = await rollBackChild(deps, trx, child, ctx);
    if (rolled) done.push(rolled);
  }
  const order = await rollBackOnOrder(trx, original.order_id, {
    parentId: original.id,
    parentRollbackId,
    children: done,
    mode: ctx.mode,
    at: ctx.at,
  });
  const rows = done.map(({ child, rollbackId }) => rollbackRow(rollbackId, child, order, ctx));
  const parentRow = parentRollbackRow(parentRollbackId, parent, rows, order, ctx);
  await insertRedemptions(trx, strip([parentRow, ...rows]));
  for (const [i, row] of rows.entries()) await announceRollback(trx, row, done[i]!.child, ctx);
  await deps.seams.fire(REDEMPTIONS_ROLLED_BACK, trx, {
    rollbacks: rows,
    originals: done.map((d) => d.child),
    customer: ctx.customer,
    actor: ctx.actor,
    at: ctx.at,
  });
  return { rollbacks: rows.map(presentRedemption), parent_rollback: presentRedemption(parentRow), order };
}

/** The refusal's failed rollback (rrf_) and event, in a transaction of their own; the 400 that answers it. */
async function refuse(deps: RollbackDeps, id: string, run: Run, refusal: RollbackRefusal): Promise<AppError> {
  const failedId = timeOrderedId('rrf_', run.at);
  await deps.db.transaction().execute(async (trx) => {
    // It exists: the refusal came after findRollbackTarget found it.
    const original = (await findRedemptionById(trx, id)) as RedemptionRow;
    const customer = await redemptionCustomer(trx, original);
    const ctx = { ...run, customer, mode: 'WITH_ORDER' as const };
    const row = failedRollbackRow(failedId, original, { key: refusal.key, message: refusal.failureMessage }, ctx);
    await insertRedemptions(trx, strip([row]));
    await announceRollback(trx, row, null, ctx);
  });
  return new AppError(refusal.key, refusal.failureMessage, {
    resource_id: failedId,
    resource_type: 'redemption_rollback',
  });
}

async function run<T>(
  deps: RollbackDeps,
  id: string,
  input: RollbackInput,
  actor: Actor,
  work: (trx: Tx, run: Run) => Promise<T>,
): Promise<T> {
  const started: Run = { actor, at: isoNow(deps.clock), input };
  try {
    return await deps.db.transaction().execute((trx) => work(trx, started));
  } catch (error) {
    if (error instanceof RollbackRefusal) throw await refuse(deps, id, started, error);
    throw error;
  }
}

/**
 * POST /v1/redemptions/{id}/rollback: the rollback record, with its voucher whole as GET
 * /v1/vouchers/{code} shows it after the rollback (the reference's recorded answers), as the
 * legacy redeem answers it; the stored record keeps the short voucher.
 */
export async function rollbackRedemption(
  deps: RollbackDeps,
  actor: Actor,
  id: string,
  input: RollbackInput,
): Promise<RedemptionObject> {
  const rollback = await run(deps, id, input, actor, (trx, r) => singleIn(deps, trx, id, r));
  const code = rollback.voucher?.code;
  // A voucher deleted since keeps its short snapshot.
  if (typeof code !== 'string' || !(await findVoucherRow(deps.db, code))) return rollback;
  return { ...rollback, voucher: await getVoucher(deps, code) };
}

export const rollbackStackedRedemption = (
  deps: RollbackDeps,
  actor: Actor,
  id: string,
  input: RollbackInput,
): Promise<StackedRollbackAnswer> => run(deps, id, input, actor, (trx, r) => stackedIn(deps, trx, id, r));
