import type { Next } from 'koa';
import type { Logger } from '../../app/logger.js';
import { apiErrorOf } from '../../db/errors.js';
import { AppError } from '../../lib/errors.js';
import { stringifyJson } from '../../lib/raw-json.js';
import type { AppContext } from '../context.js';

/** The AppError a known failure is answered with; undefined for an unexpected one (a 500). */
export function translate(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  return apiErrorOf(error);
}

export const internalError = (): AppError => new AppError('internal_error', 'Unexpected error; see the server log');

/** The body an error is answered with. */
export const errorBody = (error: AppError, ctx: AppContext) => ({ ...error.toBody(), request_id: ctx.state.requestId });

/** A route that set no body: 404 for an unknown path, 405 for a known path with another method. */
function unhandled(ctx: AppContext): AppError | undefined {
  if (ctx.body !== undefined && ctx.body !== null) return undefined;
  if (ctx.status === 404) {
    return new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
  }
  if (ctx.status === 405 || ctx.status === 501) {
    return new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`);
  }
  return undefined;
}

/** A plain object or array answer, which Koa would otherwise serialize after every middleware ran. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export const isJsonAnswer = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  !Buffer.isBuffer(body) &&
  typeof (body as { pipe?: unknown }).pipe !== 'function';

/**
 * The one error renderer: every failure becomes {code, key, message, details, request_id}.
 * Unknown errors become 500 internal_error; their stack goes to the log, never the client.
 * Answers are serialized here, not by Koa after the fact, so that a value that cannot be
 * written (one nested too deep for JSON.stringify) fails inside this handler too. A refusal
 * answered before the request's body was all read settles that body (settleUnreadBody).
 */
export function errorRenderer(log: Logger, bodyTimeoutMs: number) {
  return async function renderErrors(ctx: AppContext, next: Next): Promise<void> {
    let appError: AppError | undefined;
    try {
      await next();
      appError = unhandled(ctx);
      if (!appError && isJsonAnswer(ctx.body)) {
        // The header first, as Koa's `type` setter spells it: a string body then keeps it (no
        // text/plain guess replaced by a second MIME lookup).
        ctx.set('Content-Type', JSON_TYPE);
        ctx.body = stringifyJson(ctx.body);
      }
    } catch (error) {
      appError = translate(error);
      if (!appError) {
        log.error('request failed', error, { req_id: ctx.state.requestId, method: ctx.method, path: ctx.path });
        appError = internalError();
      }
    }
    if (!appError) return;
    ctx.status = appError.status;
    // A 503 is the database's momentary state, never the request's fault: say when to come back.
    if (appError.status === 503) ctx.set('Retry-After', '1');
    ctx.body = errorBody(appError, ctx);
    ctx.state.errorKey = appError.key;
    if (!ctx.req.complete) settleUnreadBody(ctx, bodyTimeoutMs);
  };
}

/**
 * A request answered before its body was all read: refused from its headers (401, 403, 429,
 * 415), or too large (413), or too slow (408). A 408 or 413 closes the connection once the
 * answer is out (RFC 9110 15.5.9 asks that of a 408; a 413's body is not worth taking in).
 * Otherwise the rest of the body is discarded unread as it arrives (Node dumps a body nobody
 * read), so a client still sending can finish and read its answer, and the connection serves
 * its next request; one whose body is still not in after `timeoutMs` is closed.
 */
function settleUnreadBody(ctx: AppContext, timeoutMs: number): void {
  const req = ctx.req;
  if (ctx.status === 408 || ctx.status === 413) {
    req.resume();
    ctx.set('Connection', 'close');
    return;
  }
  const timer = setTimeout(() => req.socket.destroy(), timeoutMs);
  timer.unref();
  const settled = (): void => clearTimeout(timer);
  req.once('end', settled);
  req.once('close', settled);
}
