import { assertMatchesReference } from '../../support/openapi.js';

/**
 * The whole order object the API answers, with the defaults of an order that was sent nothing
 * else: no source id, status CREATED, no amounts beyond `amount` and `total_amount`, no items,
 * no customer. Fields given replace the defaults; `customer_id` / `referrer_id` also give the
 * `customer` / `referrer` blocks.
 */
export function orderObject(fields: Record<string, unknown> & { id: string; created_at: string }) {
  const amount = (fields.amount as number | undefined) ?? 0;
  const customerId = (fields.customer_id as string | undefined) ?? null;
  const referrerId = (fields.referrer_id as string | undefined) ?? null;
  return {
    source_id: null,
    updated_at: null,
    status: 'CREATED',
    amount,
    total_amount: amount,
    items: [],
    metadata: {},
    ...(customerId ? { customer: { id: customerId, object: 'customer' } } : {}),
    ...(referrerId ? { referrer: { id: referrerId, object: 'customer' } } : {}),
    object: 'order',
    ...fields,
    customer_id: customerId,
    referrer_id: referrerId,
  };
}

/** An item as answered: `object`, the given id and fields. */
export const itemObject = (id: string, fields: Record<string, unknown>) => ({ object: 'order_item', id, ...fields });

/** Asserts an order answer (POST, GET, PUT) or list answer matches the reference's operation. */
export function assertOrderReference(method: 'POST' | 'GET' | 'PUT', body: unknown, list = false): void {
  assertMatchesReference(method, list || method === 'POST' ? '/v1/orders' : '/v1/orders/{orderId}', 200, body);
}

/** The ids of an order's items, in order (items get fresh ids whenever they change). */
export const itemIds = (order: { items: Array<{ id: string }> }): string[] => order.items.map((item) => item.id);
