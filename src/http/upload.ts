import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { AppError, invalidPayload } from '../lib/errors.js';
import type { AppContext } from './context.js';

/** The paths whose POST takes a multipart upload (the body middleware leaves their body unread). */
export const UPLOAD_PATH = /\/importCSV$/;

const noFile = () =>
  invalidPayload('The request has no file: send the CSV as multipart/form-data in a part named file');

/**
 * The file part (named `file`) of a multipart/form-data request, streamed to `consume` as it
 * arrives: never held whole. A request that is not multipart, or has no such part, is 400; a
 * file larger than the body limit is 413 (the stream `consume` reads fails with that error).
 * The answer waits for `consume` to settle, so whatever it cleans up on failure is gone first.
 */
export function withUploadedFile<T>(ctx: AppContext, consume: (file: Readable) => Promise<T>): Promise<T> {
  if (!ctx.is('multipart/form-data')) throw noFile();
  const limitBytes = ctx.state.uploadLimitBytes ?? Infinity;
  return new Promise<T>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { fileSize: limitBytes, files: 1 } });
    } catch (error) {
      return reject(invalidPayload(`The multipart body cannot be read: ${(error as Error).message}`));
    }
    let file: Readable | undefined;
    parser.on('file', (name, stream) => {
      if (name !== 'file' || file) return stream.resume();
      file = stream;
      // The reader sees the error through its pipeline; this keeps one emitted after it stopped from being uncaught.
      stream.on('error', () => undefined);
      stream.on('limit', () =>
        stream.destroy(new AppError('payload_too_large', `The file exceeds ${limitBytes} bytes`)),
      );
      consume(stream).then(resolve, reject);
    });
    parser.on('error', (error: Error) => {
      const failure = invalidPayload(`The multipart body cannot be read: ${error.message}`);
      if (file) file.destroy(failure);
      else reject(failure);
    });
    parser.on('close', () => {
      if (!file) reject(noFile());
    });
    ctx.req.on('aborted', () => parser.destroy(new Error('request aborted')));
    ctx.req.pipe(parser);
  });
}
