/**
 * The discount engine (issue 12, point 1): pure, no I/O. Given an order and the loaded
 * redeemables in stacking order, it computes each one's effect and the order's amounts.
 *
 *   const result = applyStack(order, [{ kind: 'discount', discount, items }, { kind: 'gift', balance }]);
 *   if (result.ok) result.order.total_amount; // what is left to pay
 */
export { applyStack } from './apply-stack.js';
export { percentOf, splitCapped } from './money.js';
export * from './types.js';
