import { object, string, type InferType } from 'yup';

const text = () => string().nullable().optional();

/** YYYY-MM-DD that names a real day. */
export function isDateOnly(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.getUTCDate() === Number(m[3]);
}

const dateOnly = () =>
  text().test('date', '${path} must be a date in YYYY-MM-DD format', (value) => value == null || isDateOnly(value));

const addressSchema = object({
  city: text(),
  state: text(),
  line_1: text(),
  line_2: text(),
  country: text(),
  postal_code: text(),
})
  .noUnknown(true, 'address has unknown field(s): ${unknown}; allowed: city, state, line_1, line_2, country, postal_code')
  .nullable()
  .optional()
  .default(undefined);

/**
 * The customer fields of a create (POST) or update (PUT) body. Other keys (`object`,
 * `summary`, `created_at`... of a customer read back and sent again) are ignored.
 */
const fields = {
  source_id: string().min(1, 'source_id must not be empty').nullable().optional(),
  name: text(),
  description: text(),
  email: string().email('email must be a valid e-mail address').nullable().optional(),
  phone: text(),
  birthdate: dateOnly(),
  /** Deprecated spelling of birthdate, still accepted. */
  birthday: dateOnly(),
  address: addressSchema,
  metadata: object().optional().default(undefined),
};

const NOT_AN_OBJECT = 'body must be a JSON object';

const sameBirthdate = {
  name: 'birthdate-birthday',
  message: 'birthdate and birthday are the same field; when both are given they must be equal',
  test: (value: { birthdate?: string | null; birthday?: string | null }) =>
    value.birthdate === undefined || value.birthday === undefined || value.birthdate === value.birthday,
};

export const updateCustomerSchema = object(fields).typeError(NOT_AN_OBJECT).nonNullable(NOT_AN_OBJECT).test(sameBirthdate);
export const createCustomerSchema = object({ ...fields, id: string().min(1, 'id must not be empty').optional() })
  .typeError(NOT_AN_OBJECT)
  .nonNullable(NOT_AN_OBJECT)
  .test(sameBirthdate);

export type CustomerFields = InferType<typeof updateCustomerSchema>;
export type CreateCustomerBody = InferType<typeof createCustomerSchema>;
