import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorBody, requestIdOf, startTestServer, type TestServer } from '../support/server.js';

describe('HTTP core', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyLimitBytes: 1024 });
  });
  after(() => server.close());

  it('gives every answer its own request id', async () => {
    const a = await server.request('GET', '/health', { auth: 'none' });
    const b = await server.request('GET', '/nowhere', { auth: 'none' });
    assert.match(requestIdOf(a), /^v-[0-9a-f]{18}$/);
    assert.match(requestIdOf(b), /^v-[0-9a-f]{18}$/);
    assert.notEqual(requestIdOf(a), requestIdOf(b));
  });

  it('answers malformed JSON with 400 invalid_payload', async () => {
    const res = await server.request('POST', '/v1/oauth/token', {
      raw: '{"grant_type": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.key, 'invalid_payload');
    assert.match(res.body.details, /^Request body is not valid JSON: /);
    assert.deepEqual(
      res.body,
      errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details: res.body.details }),
    );
  });

  it('refuses a JSON body that is not an object or array', async () => {
    const res = await server.request('POST', '/v1/oauth/token', {
      raw: '"text"',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.key, 'invalid_payload');
  });

  it('answers a body of another content type with 415', async () => {
    const res = await server.request('POST', '/v1/oauth/token', {
      raw: 'hello',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 415,
        key: 'unsupported_media_type',
        message: 'Unsupported media type',
        details: 'Content-Type text/plain is not supported; send application/json',
      }),
    );
    assert.equal(res.status, 415);
  });

  it('answers a request without a valid key 401 from its headers, whatever its body (never read)', async () => {
    const unauthorized = (res: { status: number; body: unknown }, details: string) =>
      assert.deepEqual(
        { status: res.status, body: res.body },
        {
          status: 401,
          body: errorBody(res as never, { code: 401, key: 'unauthorized', message: 'Unauthorized', details }),
        },
      );
    const details = 'Send X-App-Id and X-App-Token, or an OAuth bearer token';
    unauthorized(
      await server.request('POST', '/v1/customers', {
        auth: 'none',
        raw: '{"name": ',
        headers: { 'Content-Type': 'application/json' },
      }),
      details,
    );
    unauthorized(
      await server.request('POST', '/v1/customers', {
        auth: 'none',
        raw: 'hello',
        headers: { 'Content-Type': 'text/plain' },
      }),
      details,
    );
    unauthorized(
      await server.request('POST', '/v1/customers', { auth: 'none', body: { name: 'x'.repeat(2000) } }),
      details,
    );
    const keyed = await server.request('POST', '/v1/customers', {
      raw: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual([keyed.status, keyed.body.key], [400, 'invalid_payload']);
  });

  it('answers an oversized body with 413 and the error body', async () => {
    const res = await server.request('POST', '/v1/oauth/token', { body: { scope: 'x'.repeat(2000) } });
    assert.equal(res.status, 413);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 413,
        key: 'payload_too_large',
        message: 'Payload too large',
        details: 'Request body exceeds 1024 bytes',
      }),
    );
  });

  it('answers an oversized chunked body (no Content-Length) with 413', async () => {
    const big = new TextEncoder().encode(JSON.stringify({ scope: 'y'.repeat(4000) }));
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(big);
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-App-Id': server.serverKey.app_id,
        'X-App-Token': server.serverKey.app_token,
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as { key: string }).key, 'payload_too_large');
  });

  it('accepts Content-Type application/json with an empty body, as the official clients send', async () => {
    const res = await server.request('POST', '/v1/oauth/introspect', {
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'missing_parameters',
        message: 'Missing parameters',
        details: 'access_token is required',
      }),
    );
    const health = await server.request('GET', '/health', {
      auth: 'none',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(health.status, 200);
  });

  it('accepts a POST with an empty body and no content type', async () => {
    const res = await server.request('POST', '/v1/oauth/introspect');
    assert.equal(res.status, 400, 'past the body parser: the OAuth endpoint itself asks for access_token');
    assert.equal(res.body.key, 'missing_parameters');
  });

  it('answers an unknown route with 404 not_found', async () => {
    const res = await server.request('GET', '/v1/nothing-here');
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 404,
        key: 'not_found',
        message: 'Resource not found',
        details: 'No route for GET /v1/nothing-here',
      }),
    );
    const outside = await server.request('GET', '/elsewhere', { auth: 'none' });
    assert.equal(outside.status, 404);
    assert.equal(outside.body.key, 'not_found');
  });

  it('answers a wrong method with 405 and the methods allowed', async () => {
    const res = await server.request('GET', '/v1/oauth/token');
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 405,
        key: 'method_not_allowed',
        message: 'Method not allowed',
        details: 'GET is not allowed on /v1/oauth/token',
      }),
    );
    const health = await server.request('DELETE', '/health', { auth: 'none' });
    assert.equal(health.status, 405);
  });

  it('never answered a 500', () => {
    assert.deepEqual(server.logged, []);
  });
});
