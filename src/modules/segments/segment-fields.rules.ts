import { fieldCatalog } from '../../engine/conditions/index.js';

/**
 * The customer fields an auto-update segment's filter may name, as the reference names them
 * (`address.country`, `metadata.<key>`, `created_at`...). Summary figures (orders, redemptions,
 * loyalty points) are left out: they change without a customer update, so a membership built
 * on them would go stale.
 */
export const SEGMENT_FIELDS = fieldCatalog(
  {
    id: 'string',
    source_id: 'string',
    name: 'string',
    email: 'string',
    phone: 'string',
    description: 'string',
    birthdate: 'date',
    'address.city': 'string',
    'address.state': 'string',
    'address.line_1': 'string',
    'address.line_2': 'string',
    'address.country': 'string',
    'address.postal_code': 'string',
    created_at: 'date',
    updated_at: 'date',
  },
  { 'metadata.': 'any' },
);

/** A customer's stored columns as a segment filter reads them (a customers row has them all). */
export interface CustomerFacts {
  id: string;
  source_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  birthdate: string | null;
  /** JSON object or null. */
  address: string | null;
  /** JSON object. */
  metadata: string;
  created_at: string;
  updated_at: string;
}

const parsed = (json: string | null): Record<string, unknown> =>
  json === null ? {} : (JSON.parse(json) as Record<string, unknown>);

/**
 * The condition evaluator's getter over one customer: its JSON columns parsed once, however
 * many segments' filters read them (undefined when a field is absent).
 */
export function customerValues(customer: CustomerFacts): (field: string) => unknown {
  let metadata: Record<string, unknown> | undefined;
  let address: Record<string, unknown> | undefined;
  const keyOf = (object: Record<string, unknown>, key: string) =>
    Object.hasOwn(object, key) ? object[key] : undefined;
  return (field) => {
    if (field.startsWith('metadata.'))
      return keyOf((metadata ??= parsed(customer.metadata)), field.slice('metadata.'.length));
    if (field.startsWith('address.'))
      return keyOf((address ??= parsed(customer.address)), field.slice('address.'.length));
    const value = customer[field as keyof CustomerFacts];
    return value === null ? undefined : value;
  };
}
