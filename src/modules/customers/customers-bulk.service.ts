import type { Deps } from '../../app/deps.js';
import { enqueueBulkUpdate } from '../../jobs/bulk-updates.js';
import type { Actor } from '../../lib/actor.js';
import { bulkUpdateBody, sourceIdsMetadataBody } from '../../lib/bulk-bodies.js';
import { JobType } from '../../lib/enums.js';
import { validateBody } from '../../lib/validate.js';
import type { CustomersBulkPayload, CustomersMetadataPayload } from './customers-bulk.job.js';

type BulkDeps = Pick<Deps, 'db' | 'clock'>;

const customersBody = bulkUpdateBody('customers');

/** POST /v1/customers/bulk/async: a CUSTOMERS.BULK_UPDATE job of the entries (each checked by the job). */
export function updateCustomersInBulk(deps: BulkDeps, actor: Actor, body: unknown): Promise<{ async_action_id: string }> {
  const items = validateBody(customersBody, body);
  const payload: CustomersBulkPayload = { actor };
  return enqueueBulkUpdate(deps, { type: JobType.customersBulkUpdate, payload, items, requestId: actor.request_id });
}

/** POST /v1/customers/metadata/async: a CUSTOMERS.METADATA_UPDATE job, one item per source_id. */
export function updateCustomersMetadataInBulk(deps: BulkDeps, actor: Actor, body: unknown): Promise<{ async_action_id: string }> {
  const input = validateBody(sourceIdsMetadataBody, body);
  const payload: CustomersMetadataPayload = { actor, metadata: input.metadata };
  return enqueueBulkUpdate(deps, { type: JobType.customersMetadataUpdate, payload, items: input.source_ids, requestId: actor.request_id });
}
