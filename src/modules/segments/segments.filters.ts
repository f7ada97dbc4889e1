import { validateFilter, type Filter } from '../../engine/conditions/index.js';
import { invalidPayload } from '../../lib/errors.js';
import { SEGMENT_FIELDS } from './segment-fields.rules.js';

/** A segment's filter as given, checked over the customer fields: the stored JSON, or 400 naming every bad part. */
export function checkedSegmentFilter(filter: unknown): string {
  const checked = validateFilter(filter, SEGMENT_FIELDS);
  if (!checked.ok) throw invalidPayload(checked.errors.join('; '));
  return JSON.stringify(checked.json);
}

/** Parsed filters by their stored JSON: a customer change evaluates every dynamic segment. */
const parsed = new Map<string, Filter>();

/** The engine's filter of a stored filter (checked when it was stored). */
export function storedFilter(json: string): Filter {
  let filter = parsed.get(json);
  if (filter === undefined) {
    const checked = validateFilter(JSON.parse(json), SEGMENT_FIELDS);
    if (!checked.ok) throw new Error(`stored segment filter no longer valid: ${checked.errors.join('; ')}`);
    filter = checked.filter;
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(json, filter);
  }
  return filter;
}
