/** The customers module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { type CustomerCache, newCustomerCache, prefetchCustomers } from './customer-cache.service.js';
export type { ChangeContext } from './customer-change.service.js';
export { type CustomerChanged, onCustomerChanged } from './customer-changed.seam.js';
export { startCustomersCsvStaging } from './customer-csv-import.service.js';
export { eraseCustomerRow, findCustomerToErase } from './customer-erasure.service.js';
export {
  addLoyaltyPoints,
  adjustGiftBalanceInSummary,
  type FirstOrder,
  recordOrderInSummary,
  recordRedemptionInSummary,
  recordRollbackInSummary,
  setLastOrderInSummary,
  setLoyaltyTier,
  withdrawOrderFromSummary,
} from './customer-summary.service.js';
export type { CustomerObject, SimpleCustomer } from './customers.presenter.js';
export { createCustomerSchema } from './customers.schemas.js';
export {
  findSimpleCustomer,
  findSimpleCustomers,
  getCustomer,
  insertPlannedCustomer,
  type NewCustomerPlan,
  previewCustomerId,
  previewSimpleCustomer,
  upsertCustomer,
  upsertCustomerId,
  upsertOrPlanCustomer,
  upsertSimpleCustomer,
} from './customers.service.js';
