import type { Tx } from '../../../db/engine.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Actor } from '../../../lib/actor.js';
import { AppError, notFound, type ErrorKey } from '../../../lib/errors.js';
import { findSimpleCustomer, upsertCustomerId } from '../../customers/index.js';
import type { Customer } from '../pipeline/redemption-customer.service.js';
import type { RedemptionRow } from '../redemptions.presenter.js';
import { findRedemptionById } from '../redemptions.repository.js';
import type { RollbackInput } from './rollbacks.schemas.js';

/**
 * What a rollback checks before it changes anything. Asking for the wrong record (none, a
 * failed redemption or a rollback record, a parent on the single endpoint, a child on the
 * stacked one) is a plain 4xx and writes nothing: there is no redemption to record a failure
 * against. A rollback of a real redemption that is refused (rolled back already, another
 * customer or order named) is a RollbackRefusal: its transaction rolls back, and a failed
 * rollback record (rrf_) is written in its place, as a refused redemption writes an rf_.
 */
export class RollbackRefusal extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly failureMessage: string,
  ) {
    super(failureMessage);
  }
}

export const isParent = (row: RedemptionRow): boolean =>
  row.related_object_type === 'redemption' && row.parent_id === null;

/** The redemption a rollback names: a successful or rolled-back redemption, of the endpoint's kind. */
export async function findRollbackTarget(
  db: Kysely<Database>,
  id: string,
  kind: 'single' | 'stacked',
): Promise<RedemptionRow> {
  const row = await findRedemptionById(db, id);
  if (!row) throw notFound('redemption', id);
  if (row.object !== 'redemption' || row.result !== 'SUCCESS') {
    throw new AppError(
      kind === 'single' ? 'invalid_redemption' : 'invalid_redemption_parent',
      `${id} is not a successful redemption`,
    );
  }
  if (kind === 'single' && isParent(row)) {
    throw new AppError(
      'invalid_redemption',
      `${id} is a stacked redemption: roll it back with POST /v1/redemptions/${id}/rollbacks`,
    );
  }
  if (kind === 'stacked' && !isParent(row)) {
    throw new AppError(
      'invalid_redemption_parent',
      `${id} is not the parent of a stacked redemption: roll it back with POST /v1/redemptions/${id}/rollback`,
    );
  }
  return row;
}

const CUSTOMER_MISMATCH = 'Customer is not related with redemption.';
const ORDER_MISMATCH = 'Order is not related with redemption.';

function checkOrder(row: RedemptionRow, order: RollbackInput['order']): void {
  if (!order || (!order.id && !order.source_id)) return;
  const stored =
    row.order_snapshot === null ? null : (JSON.parse(row.order_snapshot) as { id: string; source_id?: string | null });
  const matches = stored !== null && (order.id ? order.id === stored.id : order.source_id === stored.source_id);
  if (!matches) throw new RollbackRefusal('invalid_order', ORDER_MISMATCH);
}

/** The redemption's customer as it is now (null without one, or deleted since). */
export const redemptionCustomer = async (trx: Tx, row: RedemptionRow): Promise<Customer | null> =>
  row.customer_id === null ? null : ((await findSimpleCustomer(trx, row.customer_id)) ?? null);

/**
 * The customer of the rollback: the redemption's, updated with the fields sent when the body
 * names it (by id or source_id); another customer is refused (invalid_customer).
 */
export async function rollbackCustomer(
  trx: Tx,
  row: RedemptionRow,
  input: RollbackInput,
  ctx: { actor: Actor; at: string },
): Promise<Customer | null> {
  checkOrder(row, input.order);
  const sent = input.customer;
  const stored = row.customer_snapshot === null ? null : (JSON.parse(row.customer_snapshot) as Customer);
  if (!sent || (!sent.id && !sent.source_id)) return redemptionCustomer(trx, row);
  const matches = stored !== null && (sent.id ? sent.id === stored.id : sent.source_id === stored.source_id);
  if (!matches) throw new RollbackRefusal('invalid_customer', CUSTOMER_MISMATCH);
  const id = await upsertCustomerId(trx, ctx, { ...sent, id: stored.id });
  return (await findSimpleCustomer(trx, id)) ?? stored;
}
