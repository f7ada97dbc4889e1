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
export const isJsonAnswer = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function';

/**
 * The one error renderer: every failure becomes {code, key, message, details, request_id}.
 * Unknown errors become 500 internal_error; their stack goes to the log, never the client.
 * Answers are serialized here, not by Koa after the fact, so that a value that cannot be
 * written (one nested too deep for JSON.stringify) fails inside this handler too.
 */
export function errorRenderer(log: Logger) {
  return async function renderErrors(ctx: AppContext, next: Next): Promise<void> {
    let appError: AppError | undefined;
    try {
      await next();
      appError = unhandled(ctx);
      if (!appError && isJsonAnswer(ctx.body)) {
        ctx.body = stringifyJson(ctx.body);
        ctx.type = 'application/json';
      }
    } catch (error) {
      appError = translate(error);
      if (!appError) {
        log.error('request failed', error, { req_id: ctx.state.requestId, method: ctx.method, path: ctx.path });
        appError = internalError();
      }
    }
    if (!appError) return;
    if (appError.status === 413) {
      // The client may still be sending: drain what is left and close the connection.
      ctx.req.resume();
      ctx.set('Connection', 'close');
    }
    ctx.status = appError.status;
    ctx.body = errorBody(appError, ctx);
  };
}
