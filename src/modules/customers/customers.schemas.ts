import { object, string, type InferType } from 'yup';
import { idField, jsonObjectField, longText, shortText } from '../../lib/fields.js';

const text = (label: string) => shortText(label).nullable().optional();

/** YYYY-MM-DD that names a real day. */
export function isDateOnly(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.getUTCDate() === Number(m[3]);
}

const dateOnly = (label: string) =>
  text(label).test(
    'date',
    '${path} must be a date in YYYY-MM-DD format',
    (value) => value == null || isDateOnly(value),
  );

const addressSchema = object({
  city: text('address.city'),
  state: text('address.state'),
  line_1: text('address.line_1'),
  line_2: text('address.line_2'),
  country: text('address.country'),
  postal_code: text('address.postal_code'),
})
  .typeError('address must be an object')
  .noUnknown(
    true,
    'address has unknown field(s): ${unknown}; allowed: city, state, line_1, line_2, country, postal_code',
  )
  .nullable()
  .optional()
  .default(undefined);

/**
 * The customer fields of a create (POST) or update (PUT) body. Other keys (`object`,
 * `summary`, `created_at`... of a customer read back and sent again) are ignored.
 */
const fields = {
  source_id: idField('source_id').nullable().optional(),
  name: text('name'),
  description: longText('description').nullable().optional(),
  email: text('email').email('email must be a valid e-mail address'),
  phone: text('phone'),
  birthdate: dateOnly('birthdate'),
  /** Deprecated spelling of birthdate, still accepted. */
  birthday: dateOnly('birthday'),
  address: addressSchema,
  metadata: jsonObjectField('metadata').optional(),
};

const NOT_AN_OBJECT = 'The body must be a JSON object';

const sameBirthdate = {
  name: 'birthdate-birthday',
  message: 'birthdate and birthday are the same field; when both are given they must be equal',
  // value is absent when the schema is a field of another (an order's customer).
  test: (value: { birthdate?: string | null; birthday?: string | null } | null | undefined) =>
    value == null ||
    value.birthdate === undefined ||
    value.birthday === undefined ||
    value.birthdate === value.birthday,
};

export const updateCustomerSchema = object(fields)
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT)
  .test(sameBirthdate);
export const createCustomerSchema = object({ ...fields, id: idField('id').optional() })
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT)
  .test(sameBirthdate);

/** An entry of POST /v1/customers/bulk/async: the PUT body, naming its customer by source_id. */
export const bulkCustomerSchema = updateCustomerSchema.shape({
  source_id: idField('source_id').required('source_id is required'),
});

export type CustomerFields = InferType<typeof updateCustomerSchema>;
export type CreateCustomerBody = InferType<typeof createCustomerSchema>;
