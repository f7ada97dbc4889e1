import { object } from 'yup';
import { bulkUpdateStep, type BulkPayload, type MetadataPayload } from '../../jobs/bulk-updates.js';
import { fieldOf } from '../../jobs/item-savepoints.js';
import { jsonObjectField, voucherCodeField } from '../../lib/fields.js';
import { parse } from '../../lib/validate.js';
import { mergeVoucherMetadata } from './vouchers.service.js';

/**
 * An entry of POST /v1/vouchers/bulk/async: a code and the metadata keys it gets. The
 * reference supports only metadata there; other fields are ignored.
 */
const bulkVoucherSchema = object({
  code: voucherCodeField().required('code is required'),
  metadata: jsonObjectField('metadata').required('metadata is required'),
}).typeError('The item must be an object');

/**
 * VOUCHERS.BULK_UPDATE: each entry's metadata merged into its voucher's, through PUT
 * /v1/vouchers/{code}'s change; an unknown code fails (the reference does not upsert vouchers).
 */
export const updateVouchersStep = bulkUpdateStep<BulkPayload>(async (ctx, _payload, item) => {
  const entry = parse(bulkVoucherSchema, item, 'item');
  await mergeVoucherMetadata(ctx.trx, entry.code, entry.metadata, ctx.now);
}, fieldOf('code'));

/** VOUCHERS.METADATA_UPDATE: each item is a code whose voucher gets the payload's metadata merged in. */
export const updateVouchersMetadataStep = bulkUpdateStep<MetadataPayload>(async (ctx, payload, item) => {
  await mergeVoucherMetadata(ctx.trx, item as string, payload.metadata, ctx.now);
}, fieldOf('code'));
