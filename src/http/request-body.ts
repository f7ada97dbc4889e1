import type { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError, invalidPayload } from '../lib/errors.js';
import { holdsInfinity, HUGE_NUMBER_TEXT, JSON_DEFECTS, PROTO_KEY_TEXT } from '../lib/json-input.js';

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

/** Refuses a parsed JSON body (of a depth already checked) that holds a number JSON.parse read as Infinity. */
export function refuseHugeNumbers(text: string, value: unknown): void {
  if (HUGE_NUMBER_TEXT.test(text) && holdsInfinity(value)) throw invalidPayload(`Request body ${JSON_DEFECTS.hugeNumber}`);
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
  if (PROTO_KEY_TEXT.test(text)) throw invalidPayload(`Request body ${JSON_DEFECTS.protoKey}`);
  return value;
}

/** A form body (the OAuth endpoints'): a plain object of its fields, repeated fields as arrays. */
export function parseFormBody(text: string): Record<string, unknown> {
  return { ...parseForm(text) };
}
