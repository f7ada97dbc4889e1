import type { Next } from 'koa';
import type { Deps } from '../../app/deps.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { stringifyJson } from '../../lib/raw-json.js';
import {
  awaitAnswer,
  findEarlier,
  keyRowOnFirstWrite,
  KeyTaken,
  MAX_KEY_LENGTH,
  requestHash,
  saveAnswer,
  type Earlier,
  type IdempotentRequest,
} from '../../modules/idempotency/index.js';
import type { AppContext } from '../context.js';
import { errorBody, internalError, isJsonAnswer, translate } from './errors.js';

/** How long a retry waits for the first request with its key to be answered before 409. */
const WAIT_FOR_FIRST_MS = 10_000;

function idempotentRequest(ctx: AppContext, key: string): IdempotentRequest {
  if (key.length > MAX_KEY_LENGTH) throw invalidPayload(`Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters`);
  const { channel, api_key: apiKey } = ctx.state.actor;
  return {
    credential: `${channel}:${apiKey?.app_id ?? ''}`,
    key,
    hash: requestHash(ctx.method, ctx.url, ctx.request.body),
  };
}

function replay(ctx: AppContext, answer: { status: number; body: string | null }): void {
  ctx.status = answer.status;
  ctx.set('Idempotent-Replayed', 'true');
  if (answer.body !== null) {
    ctx.body = answer.body;
    ctx.type = 'application/json';
  }
}

/** Answers from an earlier request with the key; false when there is none. */
async function answerFromEarlier(
  deps: Deps,
  ctx: AppContext,
  request: IdempotentRequest,
  earlier: Earlier,
): Promise<boolean> {
  if (earlier.kind === 'running') earlier = await awaitAnswer(deps, request, WAIT_FOR_FIRST_MS);
  switch (earlier.kind) {
    case 'none':
      return false;
    case 'answered':
      replay(ctx, earlier);
      return true;
    case 'other_request':
      throw new AppError('idempotency_key_reused', `Idempotency-Key ${request.key} was used with another request`);
    case 'running':
      throw new AppError(
        'idempotency_key_in_progress',
        `The first request with Idempotency-Key ${request.key} is still running (or its process stopped before answering); retry later`,
      );
  }
}

/**
 * `Idempotency-Key` on POST (issue 13; see docs/api.md "Idempotent retries"): a retry with the same
 * key and request gets the first answer with `Idempotent-Replayed: true` and writes nothing.
 * The key's row commits with the request's first write, so there is never a second write,
 * even from another process; requests that wrote nothing are not remembered (a retry runs
 * them again, with the same outcome).
 */
export function idempotency(deps: Deps) {
  return async function idempotentRetries(ctx: AppContext, next: Next): Promise<void> {
    const key = ctx.get('Idempotency-Key');
    if (ctx.method !== 'POST' || key === '') return next();
    const request = idempotentRequest(ctx, key);
    if (await answerFromEarlier(deps, ctx, request, await findEarlier(deps, request))) return;
    const keyRow = keyRowOnFirstWrite(deps, request);
    try {
      await deps.engine.withFirstWrite(keyRow, next);
    } catch (error) {
      if (error instanceof KeyTaken) {
        // Another request (in this process or another) took the key first: its answer is ours.
        if (await answerFromEarlier(deps, ctx, request, { kind: 'running' })) return;
        throw new AppError(
          'idempotency_key_in_progress',
          `Idempotency-Key ${request.key} was taken by a request that is no longer remembered; retry`,
        );
      }
      if (keyRow.done) {
        const appError = translate(error) ?? internalError();
        await saveAnswer(deps, request, appError.status, JSON.stringify(errorBody(appError, ctx)));
      }
      throw error;
    }
    if (!keyRow.done) return;
    const body = isJsonAnswer(ctx.body) ? stringifyJson(ctx.body) : null;
    await saveAnswer(deps, request, ctx.status, body);
    if (body !== null) {
      ctx.body = body; // sent as stored: a replay is byte for byte the same
      ctx.type = 'application/json';
    }
  };
}
