/** Async action types (voucherify-facts 2.2) that this service runs. */
export const JobType = {
  vouchersGenerate: 'CAMPAIGN.VOUCHERS_GENERATE',
  vouchersImport: 'CAMPAIGN.VOUCHERS_IMPORT',
  vouchersUpdate: 'CAMPAIGN.VOUCHERS_UPDATE',
  vouchersDelete: 'CAMPAIGN.VOUCHERS_DELETE',
  ordersImport: 'ORDERS.IMPORT',
} as const;

export type JobTypeName = (typeof JobType)[keyof typeof JobType];
