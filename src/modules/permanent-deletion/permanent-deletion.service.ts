import type { Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { eraseJobDataAbout, findJobDataAbout, type JobDataFound } from '../../jobs/erasure.service.js';
import { eraseCustomerRow, findCustomerToErase } from '../customers/index.js';
import { eraseExportsOfCustomer, removeExportFiles } from '../exports/index.js';
import { eraseCustomerEvents } from '../events/index.js';
import { releaseFreeSpace } from '../maintenance/index.js';
import { forgetAnswersAbout } from '../idempotency/index.js';
import { unlinkCustomerFromOrders } from '../orders/index.js';
import { erasePublicationCustomer } from '../publications/index.js';
import { eraseRedemptionCustomer, firstRedemptionSeqOf } from '../redemptions/index.js';
import { customerSegmentIds } from '../segments/index.js';

type DeletionDeps = Pick<Deps, 'db' | 'clock' | 'engine' | 'exportsDir'>;

interface Erased {
  id: string;
  events: { all: number; orders: number };
  orders: number;
  /** The segments the customer was in (its memberships go with its row). */
  segments: number;
  /** Export files to remove once the transaction has committed. */
  files: string[];
}

/** Every erasure, in the deletion's transaction. */
async function eraseEverywhere(trx: Tx, exportsDir: string, ref: string, jobData: JobDataFound): Promise<Erased> {
  const customer = await findCustomerToErase(trx, ref);
  const id = customer.id;
  const redemptionSeq = await firstRedemptionSeqOf(trx, id);
  const files = await eraseExportsOfCustomer(trx, exportsDir, {
    customerSeq: customer.seq,
    redemptionSeq,
    identifiers: customer.identifiers,
  });
  await eraseJobDataAbout(trx, customer.identifiers, jobData);
  const { orders, referredCustomerIds } = await unlinkCustomerFromOrders(trx, id);
  const events = await eraseCustomerEvents(trx, id, referredCustomerIds);
  await eraseRedemptionCustomer(trx, id);
  await erasePublicationCustomer(trx, id);
  await forgetAnswersAbout(trx, id);
  const segments = (await customerSegmentIds(trx, id)).length;
  await eraseCustomerRow(trx, id);
  return { id, events, orders, segments, files };
}

/**
 * POST /v1/customers/{id or source_id}/permanent-deletion (the reference's
 * customer-permanently-deletion): the customer's personal data leaves every place it is
 * stored, in one transaction. The customer's row and events go (the order events of customers
 * they referred keep them by id only); orders stay without their link to the customer; redemption records keep only the customer's id (their snapshots and
 * tracking_id cleared); publications lose their tracking_id; stored answers to keyed requests
 * that show the customer are forgotten; job data that names them is scrubbed (jobs/erasure.service)
 * and the exports that hold them are deleted with their files (exports.service). Ledgers, vouchers and every counter are untouched, so
 * balances, redeemed quantities, publish counts and list totals stay what they were.
 *
 * Deleted bytes must not linger in the file: every connection zeroes the space an update or
 * delete frees inside a page (secure_delete FAST, db/sqlite/connect.ts), this transaction also the
 * pages it frees (ON); then the free pages (which may hold older data) go back to the file
 * system and the WAL, which still holds the pages as they were, is copied into the file and
 * truncated (when no reader holds it; else it is overwritten as the WAL is reused). The answer is the reference's deletion object; promo
 * keeps no deletion records, so there is nothing to read back later.
 */
export async function deleteCustomerPermanently(deps: DeletionDeps, ref: string) {
  const at = isoNow(deps.clock);
  // The searches of whole job tables run first, on the reader: the transaction, which holds
  // the write lock, then reads only what they found and what was written since.
  const jobData = await findJobDataAbout(deps.db, (await findCustomerToErase(deps.db, ref)).identifiers);
  const counts: Erased = await deps.engine.storage.erasingFreedSpace(() =>
    deps.db.transaction().execute((trx) => eraseEverywhere(trx, deps.exportsDir, ref, jobData)),
  );
  removeExportFiles(counts.files);
  await releaseFreeSpace(deps);
  return {
    id: newId('del_'),
    created_at: at,
    related_object_id: counts.id,
    related_object: 'customer' as const,
    status: 'DONE' as const,
    data_json: {
      events: 0,
      customer_events: counts.events.all,
      daily_events: 0,
      segments: counts.segments,
      orders: counts.orders,
      order_events: counts.events.orders,
      customer: 1,
    },
    object: 'pernament_deletion' as const,
  };
}
