import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from '../app/logger.js';
import { AppError } from '../lib/errors.js';
import { newRequestId } from '../lib/ids.js';
import type { AppState } from './context.js';

/**
 * Requests Node's HTTP parser refuses before Koa sees them (headers over Node's 16 KiB,
 * malformed request lines) get the same JSON error body as every other error, with a request
 * id and a log line, instead of Node's bare status line.
 */
function answerClientError(log: Logger, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (error.code === 'ECONNRESET' && !socket.readable)) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('headers_too_large', 'The request headers exceed 16 KiB')
      : new AppError('malformed_request', `The request is not valid HTTP/1.1: ${error.code ?? error.message}`);
  log.warn('request refused before routing', { req_id: requestId, status: appError.status, reason: appError.details });
  const body = JSON.stringify({ ...appError.toBody(), request_id: requestId });
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The HTTP server of an app, for `serve` and the tests alike. It listens when told to. */
export function createHttpServer(app: Koa<AppState>, log: Logger): Server {
  const server = createServer(app.callback());
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(log, error, socket));
  return server;
}
