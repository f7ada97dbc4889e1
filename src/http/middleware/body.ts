import type { Next } from 'koa';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { jsonDepth, LIMITS } from '../../lib/limits.js';
import type { AppContext } from '../context.js';
import { parseFormBody, parseJsonBody, refuseHugeNumbers, requestText, tooLarge } from '../request-body.js';
import { UPLOAD_PATH } from '../upload.js';

/**
 * JSON bodies (and form bodies, for the OAuth endpoints). A request with a body of any other
 * type is 415. `Content-Type: application/json` with an empty body is an empty object: the
 * official clients send exactly that on GET and DELETE. Any JSON value parses (a scalar or
 * null reaches validation, which names the shape it expected); one nested deeper than
 * LIMITS.jsonDepth is refused here, before anything walks it recursively. A multipart upload
 * to an importCSV path is left to its route, which streams it.
 */
export function bodyMiddleware(limitBytes: number) {
  async function readBody(ctx: AppContext): Promise<void> {
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes) throw tooLarge(limitBytes);
    // No GET route reads a body: the hot reads skip it (README "Hot paths"). Node discards a
    // body nobody read before the connection serves its next request.
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return;
    // ctx.is() is null when the request has no body, false when its type is not listed. An
    // empty body (Content-Length: 0, as fetch sends on a bare POST) needs no type at all.
    const type = ctx.request.length === 0 ? null : ctx.is('application/json', '+json', 'application/x-www-form-urlencoded');
    // A CSV upload is streamed by its route (src/http/upload.ts), never buffered here.
    if (type === false && ctx.method === 'POST' && UPLOAD_PATH.test(ctx.path) && ctx.is('multipart/form-data')) {
      ctx.state.uploadLimitBytes = limitBytes;
      return;
    }
    if (type === false) {
      throw new AppError('unsupported_media_type', `Content-Type ${ctx.get('Content-Type') || '(none)'} is not supported; send application/json`);
    }
    const text = type === null ? '' : await requestText(ctx.req, limitBytes);
    ctx.request.body = type === 'application/x-www-form-urlencoded' ? parseFormBody(text) : parseJsonBody(text);
    if (jsonDepth(ctx.request.body) > LIMITS.jsonDepth) {
      throw invalidPayload(`The body nests deeper than ${LIMITS.jsonDepth} levels of objects and arrays`);
    }
    refuseHugeNumbers(text, ctx.request.body);
  }

  return {
    /**
     * Before authentication: the body is read (a request's body mostly arrives with its
     * headers), so that the key check and the route's reads run in one tick and share one read
     * snapshot (db/sqlite/read-snapshot.ts, README "Hot paths"). A refusal waits for `bodyRefusal`.
     */
    async readBody(ctx: AppContext, next: Next): Promise<void> {
      try {
        await readBody(ctx);
      } catch (error) {
        ctx.state.bodyRefusal = error;
      }
      return next();
    },
    /** After authentication (and the rate limit): a refused body is answered only now, so a request without a valid key is still 401. */
    async bodyRefusal(ctx: AppContext, next: Next): Promise<void> {
      if (ctx.state.bodyRefusal !== undefined) throw ctx.state.bodyRefusal;
      return next();
    },
  };
}
