import assert from 'node:assert/strict';
import { Agent, request, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** Milliseconds from the request's start to its answer. */
  ms: number;
  /** performance.now() when the answer was whole. */
  at: number;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
}

/**
 * A POST over node:http whose body the test sends as it likes: `send` gets the request once
 * its headers are out. Resolves with the answer as soon as it is whole, whether or not the
 * body was sent.
 */
function rawPost(
  url: string,
  headers: Record<string, string>,
  send: (req: ReturnType<typeof request>) => void,
): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // A keep-alive client: a connection the server closes, it closes on its own account.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      const closed = new Promise<void>((done) => req.socket?.once('close', () => done())).finally(() =>
        agent.destroy(),
      );
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(text) as Record<string, unknown>,
          ms: performance.now() - started,
          at: performance.now(),
          closed,
        }),
      );
    });
    // The server may close while the test still writes: that is the point, not a failure.
    req.on('error', (error: NodeJS.ErrnoException) =>
      ['EPIPE', 'ECONNRESET'].includes(error.code ?? '') ? undefined : reject(error),
    );
    req.flushHeaders();
    send(req);
  });
}

describe('credentials before the body', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyTimeoutMs: 600 });
  });
  after(() => server.close());

  const keyHeaders = (): Record<string, string> => ({
    'X-App-Id': server.serverKey.app_id,
    'X-App-Token': server.serverKey.app_token,
  });
  const linesOf = (requestId: string) =>
    server.logLines.filter((line) => line.req_id === requestId).map(({ time: _t, ms: _m, pid: _p, ...line }) => line);

  it('answers a POST without valid credentials 401 from its headers, its body never sent; the connection closes when no body comes', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'Send X-App-Id and X-App-Token, or an OAuth bearer token'],
      [{ 'X-App-Id': 'nobody', 'X-App-Token': 'wrong' }, 'Invalid X-App-Id or X-App-Token'],
      [{ Authorization: 'Bearer not-a-token' }, 'Invalid or expired access token'],
    ];
    for (const [credentials, details] of cases) {
      // 15 MB declared, not one byte sent: only an answer from the headers can come back.
      const answer = await rawPost(
        `${server.url}/v1/customers`,
        { ...credentials, 'Content-Type': 'application/json', 'Content-Length': String(15_000_000) },
        () => {},
      );
      const requestId = answer.headers['x-request-id'] as string;
      assert.deepEqual(
        { status: answer.status, body: answer.body },
        {
          status: 401,
          body: { code: 401, key: 'unauthorized', message: 'Unauthorized', details, request_id: requestId },
        },
      );
      assert.ok(answer.ms < 2000, `answered after ${answer.ms} ms`);
      // The rest of a body would be discarded as it came; none comes, so the body timeout ends it.
      await answer.closed;
      const closedAfter = performance.now() - (answer.at - answer.ms);
      assert.ok(closedAfter >= 600 && closedAfter < 3000, `closed ${closedAfter} ms after the request began`);
      assert.deepEqual(linesOf(requestId), [
        {
          level: 'info',
          msg: 'request',
          req_id: requestId,
          method: 'POST',
          route: null,
          status: 401,
          error: 'unauthorized',
        },
      ]);
    }
  });

  it('answers a body that trickles in slower than the timeout 408, with the error body and one log line', async () => {
    let timer: NodeJS.Timeout | undefined;
    const answer = await rawPost(
      `${server.url}/v1/customers`,
      { ...keyHeaders(), 'Content-Type': 'application/json', 'Content-Length': '1000' },
      (req) => {
        timer = setInterval(() => req.write(' '), 50);
      },
    );
    clearInterval(timer);
    const requestId = answer.headers['x-request-id'] as string;
    assert.deepEqual(
      { status: answer.status, body: answer.body, connection: answer.headers.connection },
      {
        status: 408,
        body: {
          code: 408,
          key: 'request_timeout',
          message: 'Request timeout',
          details: 'The request body did not arrive within 600 ms',
          request_id: requestId,
        },
        connection: 'close',
      },
    );
    assert.ok(answer.ms >= 600 && answer.ms < 3000, `answered after ${answer.ms} ms`);
    await answer.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(linesOf(requestId), [
      {
        level: 'info',
        msg: 'request',
        req_id: requestId,
        method: 'POST',
        route: null,
        status: 408,
        app_id: server.serverKey.app_id,
        error: 'request_timeout',
      },
    ]);
    assert.deepEqual(
      server.logLines.filter((line) => line.level !== 'info' && line.level !== 'debug'),
      [],
      'nothing else was logged about it',
    );
  });

  it('still reads a body that arrives in time in pieces, and one that came whole with its headers', async () => {
    const pieces = await rawPost(
      `${server.url}/v1/customers`,
      { ...keyHeaders(), 'Content-Type': 'application/json', 'Content-Length': '25' },
      (req) => {
        setTimeout(() => req.write('{"source_id":'), 100);
        setTimeout(() => req.end('"in-pieces"}'), 200);
      },
    );
    assert.deepEqual(
      [pieces.status, pieces.body.source_id, pieces.headers.connection],
      [200, 'in-pieces', 'keep-alive'],
    );
    pieces.closed.catch(() => {});
    const whole = await server.request('POST', '/v1/customers', { body: { source_id: 'whole' } });
    assert.deepEqual([whole.status, whole.body.source_id], [200, 'whole']);
  });

  it('never answered a 500', () => {
    assert.deepEqual(server.logged, []);
  });
});

describe('the rate limit before the body', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ rateLimit: 1, bodyTimeoutMs: 600 });
  });
  after(() => server.close());

  it('answers a key beyond its budget 429 from the headers, its body never sent', async () => {
    const headers = {
      'X-App-Id': server.serverKey.app_id,
      'X-App-Token': server.serverKey.app_token,
      'Content-Type': 'application/json',
    };
    assert.equal((await server.request('GET', '/v1/customers')).status, 200);
    const answer = await rawPost(
      `${server.url}/v1/customers`,
      { ...headers, 'Content-Length': String(15_000_000) },
      () => {},
    );
    assert.deepEqual(
      { status: answer.status, body: answer.body },
      {
        status: 429,
        body: {
          code: 429,
          key: 'too_many_requests',
          message: 'Too many requests hit the API too quickly.',
          details: answer.body.details,
          request_id: answer.headers['x-request-id'],
        },
      },
    );
    assert.match(answer.body.details as string, /^This key may make 1 requests a minute; try again in \d+ s$/);
    assert.ok(answer.ms < 2000, `answered after ${answer.ms} ms`);
    await answer.closed;
  });
});
