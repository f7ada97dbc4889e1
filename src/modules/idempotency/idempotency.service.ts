import { createHash } from 'node:crypto';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Deps } from '../../app/deps.js';
import type { FirstWrite } from '../../db/engine.js';
import { isDatabaseError } from '../../db/errors.js';
import { isoNow } from '../../lib/clock.js';
import * as repo from './idempotency.repository.js';

/**
 * Idempotent retries (issue 13, point 3). A POST sent with an `Idempotency-Key` header is
 * remembered per credential for 24 hours: its key row commits with the request's first write
 * (db/sqlite/first-write.ts), and its answer is stored once known. A retry with the same key and
 * the same request gets that answer and writes nothing.
 */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

export interface IdempotentRequest extends repo.KeyRef {
  hash: string;
}

export type Earlier =
  | { kind: 'none' }
  | { kind: 'answered'; status: number; body: string | null }
  | { kind: 'other_request' }
  | { kind: 'running' };

type IdempotencyDeps = Pick<Deps, 'db' | 'clock'>;

/** What identifies the request: method, path with query, and body. */
export const requestHash = (method: string, url: string, body: unknown): string =>
  createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');

/** The key's earlier request, if any; an expired key is forgotten here. */
export async function findEarlier(deps: IdempotencyDeps, request: IdempotentRequest): Promise<Earlier> {
  const row = await repo.findKey(deps.db, request);
  if (!row) return { kind: 'none' };
  const before = new Date(deps.clock.now().getTime() - KEY_LIFETIME_MS).toISOString();
  if (row.created_at < before) {
    // Guarded: a fresh row another request wrote since this read stays, and takes our first write (KeyTaken).
    await repo.deleteExpiredKey(deps.db, request, before);
    return { kind: 'none' };
  }
  if (row.request_hash !== request.hash) return { kind: 'other_request' };
  return row.status === null ? { kind: 'running' } : { kind: 'answered', status: row.status, body: row.body };
}

/** Thrown from the request's first transaction when another request took the key first. */
export class KeyTaken extends Error {
  override name = 'KeyTaken';
}

/** The key's row, written inside the request's first transaction. */
export function keyRowOnFirstWrite(deps: IdempotencyDeps, request: IdempotentRequest): FirstWrite {
  return {
    done: false,
    statement: () =>
      repo.insertKeyStatement(deps.db, {
        credential: request.credential,
        key: request.key,
        request_hash: request.hash,
        created_at: isoNow(deps.clock),
      }),
    refusal: (error) => (isDatabaseError(error, 'unique') ? new KeyTaken() : error),
  };
}

export const saveAnswer = (
  deps: IdempotencyDeps,
  request: IdempotentRequest,
  status: number,
  body: string | null,
): Promise<void> => repo.saveAnswer(deps.db, request, status, body);

const POLL_MS = 10;

/** Waits up to `timeoutMs` for the key's running request to be answered. */
export async function awaitAnswer(
  deps: IdempotencyDeps,
  request: IdempotentRequest,
  timeoutMs: number,
): Promise<Earlier> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const earlier = await findEarlier(deps, request);
    if (earlier.kind !== 'running' || Date.now() >= deadline) return earlier;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const SWEEP_BATCH = 1000;

/** The expiry sweep (root/sweep-registry.ts): forgets keys older than 24 hours, a batch per transaction. */
export async function expireIdempotencyKeys(deps: IdempotencyDeps, signal?: AbortSignal): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - KEY_LIFETIME_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const n = await deps.db.transaction().execute((trx) => repo.deleteExpired(trx, before, SWEEP_BATCH));
    deleted += n;
    if (n < SWEEP_BATCH || signal?.aborted) return deleted;
    await yieldToRequests();
  }
}
