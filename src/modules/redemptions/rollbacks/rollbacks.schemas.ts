import { object, string, type InferType } from 'yup';
import { jsonObjectField, nullableText } from '../../../lib/fields.js';
import { createCustomerSchema } from '../../customers/index.js';

/**
 * POST /v1/redemptions/{id}/rollback and /{parentId}/rollbacks (voucherify-facts 2.6):
 * `reason` and `tracking_id` in the query or the body (the body wins when both give one),
 * `customer`, `order` and `metadata` in the body. The customer and the order only name the
 * redemption's own (by id or source_id): anything else in them is accepted and ignored.
 */
const NOT_AN_OBJECT = 'The body must be a JSON object';

const reference = (name: string) =>
  object({
    id: nullableText(`${name}.id`).optional(),
    source_id: nullableText(`${name}.source_id`).optional(),
  }).typeError(`${name} must be an object`);

export const rollbackBodySchema = object({
  reason: nullableText('reason').optional(),
  tracking_id: nullableText('tracking_id').optional(),
  customer: createCustomerSchema
    .clone()
    .typeError('customer must be an object')
    .nullable()
    .optional()
    .default(undefined),
  order: reference('order').nullable().optional().default(undefined),
  metadata: jsonObjectField('metadata').nullable().optional(),
})
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT);

export const rollbackQuerySchema = object({
  reason: nullableText('reason').optional(),
  tracking_id: nullableText('tracking_id').optional(),
});

export type RollbackBody = InferType<typeof rollbackBodySchema>;
export type RollbackQuery = InferType<typeof rollbackQuerySchema>;

/** What a rollback was asked: the body's fields over the query's. */
export interface RollbackInput {
  reason: string | null;
  trackingId: string | null;
  customer: RollbackBody['customer'];
  order: RollbackBody['order'];
  metadata: Record<string, unknown> | null;
}

export const rollbackInput = (query: RollbackQuery, body: RollbackBody): RollbackInput => ({
  reason: body.reason ?? query.reason ?? null,
  trackingId: body.tracking_id ?? query.tracking_id ?? null,
  customer: body.customer,
  order: body.order,
  metadata: (body.metadata as Record<string, unknown> | null | undefined) ?? null,
});
