import type { Deps } from '../../app/deps.js';
import { enqueueBulkUpdate } from '../../jobs/bulk-updates.js';
import type { Actor } from '../../lib/actor.js';
import { bulkUpdateBody, sourceIdsMetadataBody } from '../../lib/bulk-bodies.js';
import { JobType } from '../../lib/enums.js';
import { validateBody } from '../../lib/validate.js';
import type { ProductsMetadataPayload } from './products-bulk.job.js';

type BulkDeps = Pick<Deps, 'db' | 'clock'>;

const productsBody = bulkUpdateBody('products');

/** POST /v1/products/bulk/async: a PRODUCTS.BULK_UPDATE job of the entries (each checked by the job). */
export function updateProductsInBulk(deps: BulkDeps, actor: Actor, body: unknown): Promise<{ async_action_id: string }> {
  const items = validateBody(productsBody, body);
  return enqueueBulkUpdate(deps, { type: JobType.productsBulkUpdate, payload: {}, items, requestId: actor.request_id });
}

/** POST /v1/products/metadata/async: a PRODUCTS.METADATA_UPDATE job, one item per source_id. */
export function updateProductsMetadataInBulk(deps: BulkDeps, actor: Actor, body: unknown): Promise<{ async_action_id: string }> {
  const input = validateBody(sourceIdsMetadataBody, body);
  const payload: ProductsMetadataPayload = { metadata: input.metadata };
  return enqueueBulkUpdate(deps, { type: JobType.productsMetadataUpdate, payload, items: input.source_ids, requestId: actor.request_id });
}
