import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook sendout's body as the tests read it: the fields they name, and the rest. */
export interface WebhookBody {
  id: string;
  type: string;
  data: Record<string, unknown>;
  event: { id: string; type: string; entity_id: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** One delivery as a webhook's view (GET /v1/webhooks/{id}) lists it, with the fields the tests read. */
export interface Delivery {
  id: string;
  event: { id: string; type: string };
  status: string;
  attempts: number;
  last_status: number | null;
}

/** One POST a receiver got: its headers, the exact body text and that text parsed. */
export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: WebhookBody;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `count` requests have arrived (or rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on port 0 (or the given one). `answer` picks each request's status in
 * order of arrival (0-based); it may return a promise to hold the answer back.
 */
export async function startReceiver(
  answer: (index: number) => number | Promise<number> = () => 200,
  port = 0,
): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      const index = received.length;
      let parsed: WebhookBody | undefined;
      // Parsed when a test reads it: a bench's receiver then costs little more than the socket.
      received.push({
        headers: req.headers,
        body,
        get json() {
          return (parsed ??= JSON.parse(body) as WebhookBody);
        },
      });
      for (const wake of waiters.splice(0)) wake();
      const status = await answer(index);
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status >= 300 ? `refused ${index}` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    received,
    waitFor(count, ms = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} of ${count} deliveries arrived within ${ms} ms`)),
          ms,
        );
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice());
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then freed): a receiver that is down. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What a receiver written for the reference checks: hex HMAC-SHA256 of the body with the secret. */
export const expectedSignature = (secret: string, body: string): string =>
  createHmac('sha256', secret).update(body).digest('hex');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
