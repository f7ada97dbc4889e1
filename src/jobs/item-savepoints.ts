import { isConstraintError } from '../db/errors.js';
import { AppError } from '../lib/errors.js';
import { JobFailure, type ItemFailure, type PortionContext } from './job-step.js';

/** A job item as a portion reads it (portions.service readJobItems). */
export interface StoredItem {
  position: number;
  body: string;
}

/**
 * Why one item failed: the refusal of a client error (its details and catalogue key), or the
 * constraint a row broke. Anything else is not the item's fault and ends the job instead.
 */
export function itemRefusal(error: unknown): Pick<ItemFailure, 'reason' | 'error_key'> {
  if (error instanceof AppError && error.status < 500) return { reason: error.details, error_key: error.key };
  if (isConstraintError(error)) return { reason: (error as Error).message, error_key: 'invalid_payload' };
  throw error instanceof AppError ? new JobFailure(error.details) : error;
}

/**
 * The work of a portion of items (imports, bulk updates): each item applied in a savepoint of
 * its own, in the portion's transaction, so a bad item leaves nothing half-written while the
 * good ones land; returns why each bad one failed, named by `keyOf` (its source_id or code).
 */
export async function applyEachItem(
  ctx: Pick<PortionContext, 'trx' | 'engine'>,
  items: StoredItem[],
  apply: (item: unknown) => Promise<unknown>,
  keyOf: (item: unknown) => string | null,
): Promise<ItemFailure[]> {
  const failures: ItemFailure[] = [];
  for (const stored of items) {
    const item: unknown = JSON.parse(stored.body);
    try {
      await ctx.engine.inSavepoint(ctx.trx, () => apply(item));
    } catch (error) {
      failures.push({ position: stored.position, key: keyOf(item), ...itemRefusal(error) });
    }
  }
  return failures;
}

/** Names an item by a string field (`source_id`, `code`), or by itself when it is a string; else null. */
export const fieldOf =
  (field: string) =>
  (item: unknown): string | null => {
    if (typeof item === 'string') return item;
    const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
    return typeof value === 'string' ? value : null;
  };
