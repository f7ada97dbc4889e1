import { bulkUpdateStep, type BulkPayload, type MetadataPayload } from '../../jobs/bulk-updates.js';
import { fieldOf } from '../../jobs/item-savepoints.js';
import { parse } from '../../lib/validate.js';
import { bulkCustomerSchema } from './customers.schemas.js';
import { mergeCustomerMetadata, upsertCustomer } from './customers.service.js';

/**
 * CUSTOMERS.BULK_UPDATE: each entry is a PUT body naming its customer by source_id, applied by
 * the same upsert as POST/PUT /v1/customers (with its customer.updated or customer.created
 * event); an unknown source_id creates the customer, as the reference does.
 */
export const updateCustomersStep = bulkUpdateStep<BulkPayload>(async (ctx, payload, item) => {
  // An entry names its customer by source_id only: an `id` in it is ignored, not followed.
  await upsertCustomer(
    ctx.trx,
    { actor: payload.actor, at: ctx.now, seams: ctx.seams },
    { ...parse(bulkCustomerSchema, item, 'item'), id: undefined },
  );
}, fieldOf('source_id'));

/** CUSTOMERS.METADATA_UPDATE: each item is a source_id whose customer gets the payload's metadata merged in. */
export const updateCustomersMetadataStep = bulkUpdateStep<MetadataPayload>(async (ctx, payload, item) => {
  await mergeCustomerMetadata(
    ctx.trx,
    { actor: payload.actor, at: ctx.now, seams: ctx.seams },
    item as string,
    payload.metadata,
  );
}, fieldOf('source_id'));
