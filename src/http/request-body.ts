import type { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError, invalidPayload } from '../lib/errors.js';

/** The Content-Encodings a body may arrive in (RFC 9110 8.4.1), with their decoders. */
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export const tooLarge = (limitBytes: number): AppError => new AppError('payload_too_large', `Request body exceeds ${limitBytes} bytes`);

/** The body's bytes as they were sent, decoded from their Content-Encoding. */
function decodedStream(req: IncomingMessage): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return req;
  const decoder = DECODERS[encoding];
  if (!decoder) throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not supported; send identity, gzip, deflate or br`);
  return req.pipe(decoder());
}

/** UTF-8 text, a leading byte-order mark dropped. */
function textOf(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The request's body as UTF-8 text (a leading byte-order mark dropped), at most `limitBytes`
 * once decoded. A body that came with its headers is whole once the HTTP parser has finished
 * their packet, which it does before the next microtask: it is then taken from the stream's
 * buffer in one read. Any other body (a large one, a slow client, an encoded one) is collected
 * from its chunks as they come.
 */
export async function requestText(req: IncomingMessage, limitBytes: number): Promise<string> {
  const source = decodedStream(req);
  await undefined;
  if (source !== req || !req.complete) return collectedText(source, req, limitBytes);
  const bytes = (req.read() as Buffer | null) ?? Buffer.alloc(0);
  if (bytes.length > limitBytes) throw tooLarge(limitBytes);
  return textOf(bytes);
}

function collectedText(source: Readable, req: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const fail = (error: AppError): void => {
      source.removeListener('data', onData);
      if (source !== req) source.destroy(); // a decoder stops inflating what nobody reads
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes > limitBytes) return fail(tooLarge(limitBytes));
      chunks.push(chunk);
    };
    source.on('data', onData);
    source.once('end', () => resolve(textOf(Buffer.concat(chunks, bytes))));
    // A client that hangs up mid-body: the answer goes nowhere, but the request must end.
    const aborted = (): void => fail(new AppError('invalid_payload', 'Request aborted'));
    req.once('aborted', aborted);
    req.once('error', aborted);
    if (source !== req) source.once('error', (error: Error) => fail(invalidPayload(`Request body could not be decoded: ${error.message}`)));
  });
}

/**
 * A key that JSON.parse makes an own property but that a later merge (Object.assign, a deep
 * copy) would take for the object's prototype: refused wherever it appears, escaped or not.
 */
const PROTO_KEY = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/**
 * A number literal too large for a double (1e400, or 309 digits and more) that JSON.parse reads
 * as Infinity, which JSON.stringify then writes as null: stored (a job's payload, a JSON column),
 * it would turn into a null the client never sent. The pattern only picks the bodies to walk.
 */
const HUGE_NUMBER = /\d[eE]\+?\d{3}|\d{309}/;

const holdsInfinity = (value: unknown): boolean => {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsInfinity);
};

/** Refuses a parsed JSON body (of a depth already checked) that holds a number JSON.parse read as Infinity. */
export function refuseHugeNumbers(text: string, value: unknown): void {
  if (HUGE_NUMBER.test(text) && holdsInfinity(value)) throw invalidPayload('Request body holds a number too large to represent (its magnitude must stay below 1.8e308)');
}

/** A JSON body: any JSON value (validation names the shape it expected); empty text is `{}`. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidPayload(`Request body is not valid JSON: ${(error as Error).message}`);
  }
  if (PROTO_KEY.test(text)) throw invalidPayload('Request body may not contain the key "__proto__"');
  return value;
}

/** A form body (the OAuth endpoints'): a plain object of its fields, repeated fields as arrays. */
export function parseFormBody(text: string): Record<string, unknown> {
  return { ...parseForm(text) };
}
