import type { RouteModule } from '../../http/context.js';
import { enqueueBulkEntries, enqueueMetadataUpdate } from '../../jobs/bulk-updates.js';
import { JobType } from '../../lib/enums.js';

/**
 * The bulk updates (docs/api.md "Bulk updates"): each answers 202 `{async_action_id}` for a job
 * whose steps live in their domains (customers-bulk.job.ts, products-bulk.job.ts,
 * vouchers-bulk.job.ts).
 */
const BULK_UPDATES = [
  {
    objects: 'customers',
    bulk: JobType.customersBulkUpdate,
    metadata: JobType.customersMetadataUpdate,
    keys: 'source_ids',
  },
  {
    objects: 'products',
    bulk: JobType.productsBulkUpdate,
    metadata: JobType.productsMetadataUpdate,
    keys: 'source_ids',
  },
  { objects: 'vouchers', bulk: JobType.vouchersBulkUpdate, metadata: JobType.vouchersMetadataUpdate, keys: 'codes' },
] as const;

export const bulkUpdatesRoutes: RouteModule = (router, deps) => {
  for (const { objects, bulk, metadata, keys } of BULK_UPDATES) {
    router.post(`/v1/${objects}/bulk/async`, async (ctx) => {
      ctx.body = await enqueueBulkEntries(deps, ctx.state.actor, bulk, objects, ctx.request.body);
      ctx.status = 202;
    });
    router.post(`/v1/${objects}/metadata/async`, async (ctx) => {
      ctx.body = await enqueueMetadataUpdate(deps, ctx.state.actor, metadata, keys, ctx.request.body);
      ctx.status = 202;
    });
  }
};
