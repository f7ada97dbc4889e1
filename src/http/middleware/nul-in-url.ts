import type { Next } from 'koa';
import { invalidPayload, invalidQueryParams } from '../../lib/errors.js';
import type { AppContext } from '../context.js';

/** `%00` as sent: a NUL byte cannot arrive raw (Node's HTTP parser refuses it), only encoded. */
const ENCODED_NUL = /%00/;

/**
 * A path or query holding a NUL character (`%00`) is refused before any route reads it, as a
 * body holding one is (lib/json-input.ts): no id or text promo stores can hold NUL (PostgreSQL's
 * text refuses it outright: a lookup by such an id failed there with a 500 while SQLite
 * answered 404), so both engines answer the same refusal.
 */
export async function refuseNulInUrl(ctx: AppContext, next: Next): Promise<void> {
  if (ENCODED_NUL.test(ctx.path)) throw invalidPayload('The path holds a NUL character (%00), which no id may hold');
  if (ENCODED_NUL.test(ctx.querystring))
    throw invalidQueryParams('The query string holds a NUL character (%00), which no parameter may hold');
  await next();
}
