import { array, boolean, number, object, string, type InferType, type ObjectShape } from 'yup';
import { parseIsoDate } from '../../lib/dates.js';
import { ORDER_STATUSES } from '../../lib/enums.js';
import { idField, jsonObjectField, nullableText, shortText } from '../../lib/fields.js';
import { LIMITS } from '../../lib/limits.js';
import { limit, oneOf, order, page, querySchema, text, type QueryOf } from '../../lib/query-params.js';
import { createCustomerSchema } from '../customers/index.js';

/**
 * Bodies of POST and PUT /v1/orders (OrdersCreateRequestBody, OrdersUpdateRequestBody) and of
 * order import items. The reference lets every field be null; null means "not given" except
 * where an update can clear a value (source_id, metadata, referrer_id). Messages name the
 * field by its path (`items[2].quantity`), so every problem of a 500-item order is findable.
 */
const PATH = '${path}';

/** Integer minor units (or counts) from `min`, within 2^53. */
const whole = (min: number) =>
  number()
    .nullable()
    .typeError(`${PATH} must be an integer`)
    .test(
      'whole',
      min === 0 ? `${PATH} must be a non-negative integer` : `${PATH} must be an integer of at least ${min}`,
      (v) => {
        return v == null || (Number.isSafeInteger(v) && v >= min);
      },
    );

const ref = () => idField(PATH).nullable();
const metadata = () => jsonObjectField(PATH).nullable();
const flag = () => boolean().nullable().typeError(`${PATH} must be a boolean`);
const block = <T extends ObjectShape>(fields: T) =>
  object(fields).typeError(`${PATH} must be an object`).nullable().optional().default(undefined);

const itemSchema = object({
  sku_id: ref(),
  product_id: ref(),
  related_object: string()
    .nullable()
    .oneOf(['product', 'sku'] as const, `${PATH} must be product or sku`),
  source_id: ref(),
  quantity: whole(1),
  discount_quantity: whole(0),
  initial_quantity: whole(1),
  amount: whole(0),
  discount_amount: whole(0),
  initial_amount: whole(0),
  price: whole(0),
  product: block({
    id: ref(),
    source_id: ref(),
    override: flag(),
    name: shortText(PATH).nullable(),
    metadata: metadata(),
    price: whole(0),
  }),
  sku: block({
    id: ref(),
    source_id: ref(),
    override: flag(),
    sku: shortText(PATH).nullable(),
    metadata: metadata(),
    price: whole(0),
  }),
  metadata: metadata(),
}).typeError(`${PATH} must be an object`);

const customerSchema = () =>
  createCustomerSchema.clone().typeError(`${PATH} must be an object`).nullable().optional().default(undefined);

const orderFields = {
  source_id: nullableText('source_id'),
  status: string()
    .nullable()
    .oneOf(ORDER_STATUSES, `status must be one of: ${ORDER_STATUSES.join(', ')}`),
  amount: whole(0),
  initial_amount: whole(0),
  discount_amount: whole(0),
  items: array(itemSchema)
    .nullable()
    .typeError('items must be an array')
    .max(LIMITS.orderItems, `items must hold at most ${LIMITS.orderItems} items`),
  metadata: metadata(),
  /** Kept only by order import (the API assigns created_at itself, as the reference does). */
  created_at: string()
    .nullable()
    .typeError('created_at must be a string')
    .test('date-time', 'created_at must be an ISO 8601 date-time', (v) => v == null || parseIsoDate(v) !== null),
  referrer_id: nullableText('referrer_id'),
  customer: customerSchema(),
  referrer: customerSchema(),
};

const NOT_AN_OBJECT = 'The body must be a JSON object';

/** POST /v1/orders, and each order of an import: an existing `id` or `source_id` updates that order. */
export const createOrderSchema = object({ id: idField('id').nullable(), ...orderFields })
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

/** PUT /v1/orders/{id or source_id}: the fields given change, the others stay. */
export const updateOrderSchema = object(orderFields).typeError(NOT_AN_OBJECT).nonNullable(NOT_AN_OBJECT);

export type CreateOrderBody = InferType<typeof createOrderSchema>;
export type UpdateOrderBody = InferType<typeof updateOrderSchema>;
export type OrderItemBody = InferType<typeof itemSchema>;

export const ORDER_LIST_ORDER_FIELDS = ['created_at', 'updated_at'] as const;

const ordersListParams = {
  limit: limit(),
  page: page(100),
  order: order(ORDER_LIST_ORDER_FIELDS),
  /** A customer id or source id (as the redemption list's `customer`); customer_id is its alias. */
  customer: text(),
  customer_id: text(),
  status: oneOf(ORDER_STATUSES),
};

/** GET /v1/orders: the reference's limit, page and order, and filters by customer and status. */
export const ordersListQuerySchema = querySchema(ordersListParams);
export type OrdersListQuery = QueryOf<typeof ordersListParams>;
