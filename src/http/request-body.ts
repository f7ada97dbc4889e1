import type { IncomingMessage } from 'node:http';
import bodyParser from 'koa-bodyparser';
import { AppError, invalidPayload } from '../lib/errors.js';
import type { AppContext } from './context.js';
import { JSON_DEFECTS, jsonDefect } from '../lib/json-input.js';

/**
 * Request bodies are read and parsed by koa-bodyparser (co-body, raw-body, inflation). What it
 * does not do the way promo answers, the functions here do beside it: the Content-Encoding it
 * may meet, its errors as the catalogue's bodies, an empty or blank JSON body, depth and
 * numbers too large for a double.
 */

export const tooLarge = (limitBytes: number): AppError =>
  new AppError('payload_too_large', `Request body exceeds ${limitBytes} bytes`);

/** The Content-Encodings a body may arrive in (RFC 9110 8.4.1), as inflation names them. */
const ENCODINGS: Record<string, string | undefined> = {
  identity: 'identity',
  '': 'identity',
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
  br: 'br',
};

/**
 * Names the body's Content-Encoding as inflation knows it (`x-gzip` is gzip, RFC 9110 8.4.1.3;
 * case and spaces do not count), or refuses it with the catalogue's 415 before anything reads.
 */
export function normalizeEncoding(req: IncomingMessage): void {
  const sent = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const known = ENCODINGS[sent];
  if (!known)
    throw new AppError(
      'unsupported_media_type',
      `Content-Encoding ${sent} is not supported; send identity, gzip, deflate or br`,
    );
  req.headers['content-encoding'] = known;
}

/**
 * koa-bodyparser for JSON (any `application/json` or `+json` type) and forms (the OAuth
 * endpoints'). The limit is raw-body's, counted on the decoded bytes (a small gzip of a large
 * body is refused once its decoded size passes it). Not strict: any JSON value parses, and
 * validation names the shape it expected. `__proto__` keys, escaped or not, are refused by
 * co-body's parser (bourne; co-body's `onProtoPoisoning` is `error` unless told otherwise, and
 * test/api/request-body.test.ts holds it to that).
 */
export function bodyParserFor(limitBytes: number) {
  // koa-bodyparser hands its options on to co-body, whose `queryString` its types do not list.
  const options: bodyParser.Options & { queryString: { allowDots: boolean } } = {
    enableTypes: ['json', 'form'],
    extendTypes: { json: ['+json'] },
    jsonLimit: `${limitBytes}b`,
    formLimit: `${limitBytes}b`,
    strict: false,
    // Flat fields as the OAuth endpoints read them: `a.b=c` stays the field `a.b`.
    queryString: { allowDots: false },
  };
  return bodyParser(options);
}

interface ReadError {
  status?: number;
  type?: string;
  code?: string;
  message?: string;
  /** co-body's: the text that did not parse. */
  body?: unknown;
}

/** The catalogue error for what reading or parsing a body threw; anything else as it was. */
export function bodyError(error: unknown, limitBytes: number): unknown {
  if (error instanceof AppError || typeof error !== 'object' || error === null) return error;
  const e = error as ReadError;
  if (e.type === 'entity.too.large') return tooLarge(limitBytes);
  if (e.type === 'request.aborted') return invalidPayload('Request aborted');
  if (e.type === 'request.size.invalid') return invalidPayload('Request body does not match its Content-Length');
  if (e.message === 'Object contains forbidden prototype property')
    return invalidPayload(`Request body ${JSON_DEFECTS.protoKey}`);
  if (typeof e.body === 'string') return invalidPayload(`Request body is not valid JSON: ${e.message}`);
  // A zlib or brotli stream error (its code, no HTTP status): the bytes do not decode.
  if (e.status === undefined && typeof e.code === 'string')
    return invalidPayload(`Request body could not be decoded: ${e.message}`);
  return error;
}

/** co-body's refusal of a body that is empty or only blanks: the official clients send one; it is `{}`. */
export const isBlankBody = (error: unknown): boolean =>
  typeof (error as ReadError | null)?.body === 'string' && ((error as ReadError).body as string).trim() === '';

/**
 * What the parsed body must also be: an empty text is `{}` (co-body answers it as an empty
 * string), and free of what lib/json-input.ts refuses in any JSON from outside (nesting past
 * the depth limit, numbers JSON.parse read as Infinity), in the same one bounded walk that
 * `promo import` gives each item.
 */
export function checkParsedBody(ctx: AppContext): void {
  const text = ctx.request.rawBody ?? '';
  if (ctx.request.body === '' && text.trim() === '') ctx.request.body = {};
  const defect = jsonDefect(ctx.request.body);
  if (defect === undefined) return;
  // Worded as the documented refusals are: "The body nests deeper...", "Request body holds...".
  throw invalidPayload(`${defect === JSON_DEFECTS.tooDeep ? 'The body' : 'Request body'} ${defect}`);
}
