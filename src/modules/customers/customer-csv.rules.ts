import { sortColumns } from '../../lib/csv.js';

/**
 * A customers CSV row as the body POST /v1/customers takes (the reference's "standard
 * customer fields mapping": Id, Name, Email, Phone, Birthdate, Source_id, Description,
 * Address_line_1, Address_line_2, Address_Postal_Code, Address_City, Address_State,
 * Address_Country; any other column is metadata). The body is then checked by the same schema.
 */
const STANDARD: Readonly<Record<string, string>> = {
  id: 'id',
  source_id: 'source_id',
  name: 'name',
  email: 'email',
  phone: 'phone',
  birthdate: 'birthdate',
  birthday: 'birthdate',
  description: 'description',
  address_line_1: 'address.line_1',
  address_line_2: 'address.line_2',
  address_postal_code: 'address.postal_code',
  address_city: 'address.city',
  address_state: 'address.state',
  address_country: 'address.country',
};

export function customerFromCsv(record: Record<string, string>): Record<string, unknown> {
  const { fields, metadata } = sortColumns(record, STANDARD);
  const body: Record<string, unknown> = {};
  const address: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('address.')) address[field.slice('address.'.length)] = value;
    else body[field] = value;
  }
  if (Object.keys(address).length > 0) body.address = address;
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  return body;
}
