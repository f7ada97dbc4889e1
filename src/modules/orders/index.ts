/** The orders module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { checkOrderImport, startOrderImportStaging } from './order-import.service.js';
export { onOrderPaid, type PaidOrder } from './order-paid.seam.js';
export { recordOrderRedemption } from './order-redemptions.service.js';
export { onOrderStatusChanged } from './order-status.seam.js';
export type { OrderItemObject, OrderObject } from './orders.presenter.js';
export { type CreateOrderBody, createOrderSchema } from './orders.schemas.js';
export {
  createOrder,
  findOrderObject,
  type OrderContext,
  type PendingOrder,
  stageOrder,
} from './orders.service.js';
export { previewOrder } from './order-preview.service.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export { unlinkCustomer as unlinkCustomerFromOrders } from './orders-erasure.repository.js';
