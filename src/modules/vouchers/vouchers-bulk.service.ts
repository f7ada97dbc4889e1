import type { Deps } from '../../app/deps.js';
import { enqueueBulkUpdate } from '../../jobs/bulk-updates.js';
import type { Actor } from '../../lib/actor.js';
import { bulkUpdateBody, codesMetadataBody } from '../../lib/bulk-bodies.js';
import { JobType } from '../../lib/enums.js';
import { validateBody } from '../../lib/validate.js';
import type { VouchersMetadataPayload } from './vouchers-bulk.job.js';

type BulkDeps = Pick<Deps, 'db' | 'clock'>;

const vouchersBody = bulkUpdateBody('vouchers');

/** POST /v1/vouchers/bulk/async: a VOUCHERS.BULK_UPDATE job of the entries (each checked by the job). */
export function updateVouchersInBulk(deps: BulkDeps, actor: Actor, body: unknown): Promise<{ async_action_id: string }> {
  const items = validateBody(vouchersBody, body);
  return enqueueBulkUpdate(deps, { type: JobType.vouchersBulkUpdate, payload: {}, items, requestId: actor.request_id });
}

/** POST /v1/vouchers/metadata/async: a VOUCHERS.METADATA_UPDATE job, one item per code. */
export function updateVouchersMetadataInBulk(deps: BulkDeps, actor: Actor, body: unknown): Promise<{ async_action_id: string }> {
  const input = validateBody(codesMetadataBody, body);
  const payload: VouchersMetadataPayload = { metadata: input.metadata };
  return enqueueBulkUpdate(deps, { type: JobType.vouchersMetadataUpdate, payload, items: input.codes, requestId: actor.request_id });
}
