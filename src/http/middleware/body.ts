import type { Next } from 'koa';
import { AppError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import {
  bodyError,
  bodyParserFor,
  checkParsedBody,
  isBlankBody,
  normalizeEncoding,
  tooLarge,
} from '../request-body.js';
import { UPLOAD_PATH } from '../upload.js';

const parsed = async (): Promise<void> => {};

/** The read, or the catalogue's 408 once the body has taken longer than `timeoutMs` to arrive. */
function within<T>(read: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError('request_timeout', `The request body did not arrive within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  // After a 408 the connection closes under the read, which then fails with nobody to hear it.
  read.catch(() => {});
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/**
 * JSON bodies (and form bodies, for the OAuth endpoints), read by koa-bodyparser once the
 * request has been admitted (middleware/auth.ts). A request with a body of any other type is
 * 415. `Content-Type: application/json` with an empty body is an empty object: the official
 * clients send exactly that on GET and DELETE. A body slower than `timeoutMs` (from the moment
 * it is read) is 408. A multipart upload to an importCSV path is left to its route, which
 * streams it.
 */
export function bodyMiddleware(limitBytes: number, timeoutMs: number) {
  const parse = bodyParserFor(limitBytes);

  async function readBody(ctx: AppContext): Promise<void> {
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes) throw tooLarge(limitBytes);
    // No GET route reads a body: the hot reads skip it (docs/performance.md "Hot paths"). Node discards a
    // body nobody read before the connection serves its next request.
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return;
    // ctx.is() is null when the request has no body, false when its type is not listed. An
    // empty body (Content-Length: 0, as fetch sends on a bare POST) needs no type at all.
    const type =
      ctx.request.length === 0 ? null : ctx.is('application/json', '+json', 'application/x-www-form-urlencoded');
    // A CSV upload is streamed by its route (src/http/upload.ts), never buffered here.
    if (type === false && ctx.method === 'POST' && UPLOAD_PATH.test(ctx.path) && ctx.is('multipart/form-data')) {
      ctx.state.uploadLimitBytes = limitBytes;
      return;
    }
    if (type === false) {
      throw new AppError(
        'unsupported_media_type',
        `Content-Type ${ctx.get('Content-Type') || '(none)'} is not supported; send application/json`,
      );
    }
    if (type === null) {
      ctx.request.body = {};
      return;
    }
    normalizeEncoding(ctx.req);
    try {
      // A body already whole in memory cannot be late: no timer for it.
      await (ctx.req.complete ? parse(ctx, parsed) : within(parse(ctx, parsed), timeoutMs));
    } catch (error) {
      if (!isBlankBody(error)) throw bodyError(error, limitBytes);
      ctx.request.body = {};
    }
    checkParsedBody(ctx);
  }

  return async function readRequestBody(ctx: AppContext, next: Next): Promise<void> {
    await readBody(ctx);
    return next();
  };
}
