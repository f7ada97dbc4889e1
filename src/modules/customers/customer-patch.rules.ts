import type { CustomerPatch, CustomerRow } from './customers.repository.js';
import type { Address } from './customers.presenter.js';
import type { CustomerFields } from './customers.schemas.js';

const ADDRESS_KEYS = ['city', 'state', 'line_1', 'line_2', 'country', 'postal_code'] as const;

/**
 * The given address fields as stored JSON, null ones included (the real API keeps an address
 * whose fields are null as an object with those null fields); null when no field is given.
 */
function addressJson(address: Partial<Record<keyof Address, string | null | undefined>> | null): string | null {
  if (address === null) return null;
  const kept: Partial<Record<keyof Address, string | null>> = {};
  for (const key of ADDRESS_KEYS) {
    const value = address[key];
    if (value !== undefined) kept[key] = value;
  }
  return Object.keys(kept).length === 0 ? null : JSON.stringify(kept);
}

/**
 * The columns a validated body sets. A field left out stays as it is; null clears it.
 * `birthday` is the deprecated spelling of `birthdate`; `address` and `metadata` are replaced
 * as a whole. `source_id` is not part of it: the service decides what a given one means.
 */
export function patchFromFields(input: CustomerFields): CustomerPatch {
  const patch: CustomerPatch = {};
  for (const key of ['name', 'description', 'email', 'phone'] as const) {
    if (input[key] !== undefined) patch[key] = input[key];
  }
  const birthdate = input.birthdate !== undefined ? input.birthdate : input.birthday;
  if (birthdate !== undefined) patch.birthdate = birthdate;
  if (input.address !== undefined) patch.address = addressJson(input.address);
  if (input.metadata !== undefined) patch.metadata = JSON.stringify(input.metadata);
  return patch;
}

/** Only the columns whose value would change; empty when the body changes nothing. */
export function changedColumns(row: CustomerRow, patch: CustomerPatch): CustomerPatch {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (row[key as keyof CustomerRow] !== value) changed[key] = value;
  }
  return changed as CustomerPatch;
}
