import { JobType } from '../lib/enums.js';

/**
 * Where a job type's step lives: a module URL and the name of its export (a JobStep). Worker
 * threads import it by URL, so the job machinery (src/jobs) never imports a domain module.
 */
export interface StepRef {
  module: string;
  export: string;
}

export interface JobTypeEntry {
  step: StepRef;
  /** Items in the first portion; later portions adapt to the target duration. */
  firstPortion: number;
  /**
   * For jobs of items (imports): the field that names a failed item in `result.failed` and in
   * the failures report (`code` for vouchers, `source_id` for orders).
   */
  failureKey?: string;
  /**
   * How the result lists the first failures: `failed` [{<failureKey>, reason}] (imports, the
   * default), or `errors` [{message, details, key, <failureKey>}] with `reports` (bulk updates).
   */
  failureList?: FailureList;
  /** CSV imports: each failure also names its `row` (1 = the first row under the header). */
  failureRow?: boolean;
  /**
   * The worker connection's page cache while it runs this type's portions, in MiB (64 unless
   * given: bulk inserts into big random indexes, voucher codes, want it large).
   */
  cacheMb?: number;
  /**
   * A second portion may be under way while one writes (jobs/runner.ts): it prepares and
   * copies the WAL back meanwhile, then waits for the write gate; each portion still reads the
   * job's cursor in its own transaction. Generations: the WAL copy no longer adds to each portion.
   */
  overlap?: boolean;
}

export type FailureList = 'failed' | 'errors';

export type JobRegistry = Readonly<Record<string, JobTypeEntry>>;

/** A step exported by a domain module, by its path under src/modules. */
export const domainStep = (path: string, name: string): StepRef => ({ module: new URL(`../modules/${path}`, import.meta.url).href, export: name });

/** A bulk update's entry: items by key, failures listed as error bodies. */
const bulkUpdate = (failureKey: string) => ({ firstPortion: 200, failureKey, failureList: 'errors' as const });

/**
 * The job types this build runs: one line each. The composition root hands this to the
 * runner (`promo serve`, the commands that run their own job, tests).
 */
export const jobRegistry: JobRegistry = {
  [JobType.vouchersGenerate]: { step: domainStep('vouchers/voucher-generation.job.ts', 'generateVouchersStep'), firstPortion: 1000, overlap: true },
  [JobType.vouchersImport]: { step: domainStep('vouchers/voucher-import.job.ts', 'importVouchersStep'), firstPortion: 200, failureKey: 'code' },
  [JobType.vouchersDelete]: { step: domainStep('vouchers/campaign-vouchers.job.ts', 'deleteCampaignVouchersStep'), firstPortion: 1000 },
  [JobType.vouchersUpdate]: { step: domainStep('vouchers/campaign-vouchers.job.ts', 'updateCampaignVouchersStep'), firstPortion: 1000 },
  [JobType.export]: { step: domainStep('exports/export.job.ts', 'exportStep'), firstPortion: 1000 },
  // 16 MiB: an order import ran as fast with 16 or 32 as with 64 or 200 (docs/performance.md "Order import").
  [JobType.ordersImport]: { step: domainStep('orders/order-import.job.ts', 'importOrdersStep'), firstPortion: 200, failureKey: 'source_id', cacheMb: 16 },
  [JobType.customersBulkUpdate]: { step: domainStep('customers/customers-bulk.job.ts', 'updateCustomersStep'), ...bulkUpdate('source_id') },
  [JobType.customersMetadataUpdate]: { step: domainStep('customers/customers-bulk.job.ts', 'updateCustomersMetadataStep'), ...bulkUpdate('source_id') },
  [JobType.productsBulkUpdate]: { step: domainStep('catalog/products-bulk.job.ts', 'updateProductsStep'), ...bulkUpdate('source_id') },
  [JobType.productsMetadataUpdate]: { step: domainStep('catalog/products-bulk.job.ts', 'updateProductsMetadataStep'), ...bulkUpdate('source_id') },
  [JobType.vouchersBulkUpdate]: { step: domainStep('vouchers/vouchers-bulk.job.ts', 'updateVouchersStep'), ...bulkUpdate('code') },
  [JobType.vouchersMetadataUpdate]: { step: domainStep('vouchers/vouchers-bulk.job.ts', 'updateVouchersMetadataStep'), ...bulkUpdate('code') },
  [JobType.customersImportCsv]: { step: domainStep('customers/customer-csv-import.job.ts', 'importCustomersCsvStep'), firstPortion: 200, failureKey: 'source_id', failureRow: true },
  [JobType.productsImportCsv]: { step: domainStep('catalog/catalog-csv-import.job.ts', 'importProductsCsvStep'), firstPortion: 200, failureKey: 'source_id', failureRow: true },
  [JobType.skusImportCsv]: { step: domainStep('catalog/catalog-csv-import.job.ts', 'importSkusCsvStep'), firstPortion: 200, failureKey: 'source_id', failureRow: true },
  [JobType.vouchersImportCsv]: { step: domainStep('vouchers/voucher-csv-import.job.ts', 'importVouchersCsvStep'), firstPortion: 200, failureKey: 'code', failureRow: true },
  [JobType.segmentSync]: { step: domainStep('segments/segment-sync.job.ts', 'syncSegmentStep'), firstPortion: 1000 },
  [JobType.campaignVouchersImportCsv]: { step: domainStep('vouchers/voucher-csv-import.job.ts', 'importCampaignVouchersCsvStep'), firstPortion: 200, failureKey: 'code', failureRow: true },
};
