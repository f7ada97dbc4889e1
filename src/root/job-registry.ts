import type { JobRegistry, JobTypeEntry } from '../jobs/registry.js';
import { JobType, type JobTypeName } from '../lib/enums.js';
import { seamSubscriptions } from './subscriptions.js';

/** A bulk update's entry: items by key, failures listed as error bodies. */
const bulkUpdate = (failureKey: string) => ({ firstPortion: 200, failureKey, failureList: 'errors' as const });

const types: Record<JobTypeName, JobTypeEntry> = {
  [JobType.vouchersGenerate]: {
    step: () => import('../modules/vouchers/voucher-generation.job.js').then((m) => m.generateVouchersStep),
    firstPortion: 1000,
    overlap: true,
  },
  [JobType.vouchersImport]: {
    step: () => import('../modules/vouchers/voucher-import.job.js').then((m) => m.importVouchersStep),
    firstPortion: 200,
    failureKey: 'code',
  },
  [JobType.vouchersDelete]: {
    step: () => import('../modules/vouchers/campaign-vouchers.job.js').then((m) => m.deleteCampaignVouchersStep),
    firstPortion: 1000,
  },
  [JobType.vouchersUpdate]: {
    step: () => import('../modules/vouchers/campaign-vouchers.job.js').then((m) => m.updateCampaignVouchersStep),
    firstPortion: 1000,
  },
  [JobType.export]: {
    step: () => import('../modules/exports/export.job.js').then((m) => m.exportStep),
    firstPortion: 1000,
  },
  // 16 MiB: an order import ran as fast with 16 or 32 as with 64 or 200 (docs/performance.md "Order import").
  [JobType.ordersImport]: {
    step: () => import('../modules/orders/order-import.job.js').then((m) => m.importOrdersStep),
    firstPortion: 200,
    failureKey: 'source_id',
    cacheMb: 16,
  },
  [JobType.customersBulkUpdate]: {
    step: () => import('../modules/customers/customers-bulk.job.js').then((m) => m.updateCustomersStep),
    ...bulkUpdate('source_id'),
  },
  [JobType.customersMetadataUpdate]: {
    step: () => import('../modules/customers/customers-bulk.job.js').then((m) => m.updateCustomersMetadataStep),
    ...bulkUpdate('source_id'),
  },
  [JobType.productsBulkUpdate]: {
    step: () => import('../modules/catalog/products/products-bulk.job.js').then((m) => m.updateProductsStep),
    ...bulkUpdate('source_id'),
  },
  [JobType.productsMetadataUpdate]: {
    step: () => import('../modules/catalog/products/products-bulk.job.js').then((m) => m.updateProductsMetadataStep),
    ...bulkUpdate('source_id'),
  },
  [JobType.vouchersBulkUpdate]: {
    step: () => import('../modules/vouchers/vouchers-bulk.job.js').then((m) => m.updateVouchersStep),
    ...bulkUpdate('code'),
  },
  [JobType.vouchersMetadataUpdate]: {
    step: () => import('../modules/vouchers/vouchers-bulk.job.js').then((m) => m.updateVouchersMetadataStep),
    ...bulkUpdate('code'),
  },
  [JobType.customersImportCsv]: {
    step: () => import('../modules/customers/customer-csv-import.job.js').then((m) => m.importCustomersCsvStep),
    firstPortion: 200,
    failureKey: 'source_id',
    failureRow: true,
  },
  [JobType.productsImportCsv]: {
    step: () => import('../modules/catalog/import/catalog-csv-import.job.js').then((m) => m.importProductsCsvStep),
    firstPortion: 200,
    failureKey: 'source_id',
    failureRow: true,
  },
  [JobType.skusImportCsv]: {
    step: () => import('../modules/catalog/import/catalog-csv-import.job.js').then((m) => m.importSkusCsvStep),
    firstPortion: 200,
    failureKey: 'source_id',
    failureRow: true,
  },
  [JobType.vouchersImportCsv]: {
    step: () => import('../modules/vouchers/voucher-csv-import.job.js').then((m) => m.importVouchersCsvStep),
    firstPortion: 200,
    failureKey: 'code',
    failureRow: true,
  },
  [JobType.segmentSync]: {
    step: () => import('../modules/segments/segment-sync.job.js').then((m) => m.syncSegmentStep),
    firstPortion: 1000,
  },
  [JobType.campaignVouchersImportCsv]: {
    step: () => import('../modules/vouchers/voucher-csv-import.job.js').then((m) => m.importCampaignVouchersCsvStep),
    firstPortion: 200,
    failureKey: 'code',
    failureRow: true,
  },
};

/**
 * The job types this build runs: one line each, keyed by every JobType (a missing type fails
 * the type-check). The composition root hands this to the runner (`promo serve`, the commands
 * that run their own job, tests); worker threads import it back through `home`.
 */
export const jobRegistry: JobRegistry = { home: import.meta.url, types, subscriptions: seamSubscriptions };
