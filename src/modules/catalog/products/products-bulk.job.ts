import { bulkUpdateStep, type BulkPayload, type MetadataPayload } from '../../../jobs/bulk-updates.js';
import { fieldOf } from '../../../jobs/item-savepoints.js';
import { parse } from '../../../lib/validate.js';
import { bulkProductSchema } from './products.schemas.js';
import { mergeProductMetadata, upsertProduct } from './products.service.js';

/**
 * PRODUCTS.BULK_UPDATE: each entry is a PUT body naming its product by source_id, applied by
 * the same upsert as POST /v1/products; an unknown source_id creates the product, as the
 * reference does.
 */
export const updateProductsStep = bulkUpdateStep<BulkPayload>(async (ctx, _payload, item) => {
  // An entry names its product by source_id only: an `id` in it is ignored, not followed.
  await upsertProduct(ctx.trx, { ...parse(bulkProductSchema, item, 'item'), id: undefined }, ctx.now);
}, fieldOf('source_id'));

/** PRODUCTS.METADATA_UPDATE: each item is a source_id whose product gets the payload's metadata merged in. */
export const updateProductsMetadataStep = bulkUpdateStep<MetadataPayload>(async (ctx, payload, item) => {
  await mergeProductMetadata(ctx.trx, item as string, payload.metadata, ctx.now);
}, fieldOf('source_id'));
