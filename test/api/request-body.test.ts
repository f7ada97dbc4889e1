import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { errorBody, startTestServer, type TestServer } from '../support/server.js';

/** How a request body is read: its encodings, its JSON types, and what is refused. */
describe('request bodies', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ bodyLimitBytes: 1024 });
  });
  after(() => server.close());

  /** POST /v1/customers with these bytes and headers, answered as status and parsed body. */
  async function postCustomer(body: Buffer | string, headers: Record<string, string>) {
    const response = await fetch(`${server.url}/v1/customers`, {
      method: 'POST',
      headers: { 'X-App-Id': server.serverKey.app_id, 'X-App-Token': server.serverKey.app_token, ...headers },
      body,
    });
    const parsed = (await response.json()) as Record<string, unknown>;
    return { status: response.status, body: parsed, headers: response.headers };
  }
  const json = { 'Content-Type': 'application/json' };
  const refusal = (
    res: { status: number; body: Record<string, unknown>; headers: Headers },
    error: Parameters<typeof errorBody>[1],
  ) =>
    assert.deepEqual(
      { status: res.status, body: res.body },
      { status: error.code, body: errorBody(res as never, error) },
    );

  it('reads gzip, deflate and brotli bodies', async () => {
    const bodies: Array<[string, Buffer]> = [
      ['gzip', gzipSync('{"source_id":"by-gzip"}')],
      ['x-gzip', gzipSync('{"source_id":"by-x-gzip"}')],
      ['deflate', deflateSync('{"source_id":"by-deflate"}')],
      ['br', brotliCompressSync('{"source_id":"by-br"}')],
    ];
    for (const [encoding, bytes] of bodies) {
      const res = await postCustomer(bytes, { ...json, 'Content-Encoding': encoding });
      assert.deepEqual([res.status, res.body.source_id], [200, `by-${encoding}`]);
    }
  });

  it('answers a body that does not decode 400, and an unknown encoding 415', async () => {
    refusal(await postCustomer('not gzip', { ...json, 'Content-Encoding': 'gzip' }), {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'Request body could not be decoded: incorrect header check',
    });
    refusal(await postCustomer('{}', { ...json, 'Content-Encoding': 'compress' }), {
      code: 415,
      key: 'unsupported_media_type',
      message: 'Unsupported media type',
      details: 'Content-Encoding compress is not supported; send identity, gzip, deflate or br',
    });
  });

  it('measures the limit on the decoded body: a small gzip of a large body is 413', async () => {
    const bomb = gzipSync(`{"source_id":"${'x'.repeat(100_000)}"}`);
    assert.ok(bomb.length < 1024);
    refusal(await postCustomer(bomb, { ...json, 'Content-Encoding': 'gzip' }), {
      code: 413,
      key: 'payload_too_large',
      message: 'Payload too large',
      details: 'Request body exceeds 1024 bytes',
    });
  });

  it('parses every JSON media type it accepts, and drops a byte-order mark', async () => {
    const merge = await postCustomer('{"source_id":"by-merge-patch"}', {
      'Content-Type': 'application/merge-patch+json',
    });
    assert.deepEqual([merge.status, merge.body.source_id], [200, 'by-merge-patch']);
    const charset = await postCustomer('{"source_id":"by-charset"}', {
      'Content-Type': 'application/json; charset=utf-8',
    });
    assert.deepEqual([charset.status, charset.body.source_id], [200, 'by-charset']);
    const bom = await postCustomer(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"source_id":"by-bom"}')]),
      json,
    );
    assert.deepEqual([bom.status, bom.body.source_id], [200, 'by-bom']);
  });

  it('refuses a __proto__ key anywhere in the body, escaped or not, and writes nothing', async () => {
    const details = 'Request body may not contain the key "__proto__"';
    for (const raw of [
      '{"source_id":"p1","__proto__":{"admin":true}}',
      '{"source_id":"p2","metadata":{"\\u005f_proto__":{"admin":true}}}',
    ]) {
      refusal(await postCustomer(raw, json), {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details,
      });
    }
    const list = await server.request<{ customers: Array<{ source_id: string }> }>('GET', '/v1/customers?limit=100');
    assert.deepEqual(
      list.body.customers.filter((c) => c.source_id.startsWith('p')),
      [],
    );
    const quoted = await postCustomer(
      '{"source_id":"p3","metadata":{"note":"\\"__proto__\\": is fine inside a string"}}',
      json,
    );
    assert.deepEqual([quoted.status, quoted.body.metadata], [200, { note: '"__proto__": is fine inside a string' }]);
  });

  it('reads a body that arrives in pieces after its headers', async () => {
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(
        `${server.url}/v1/customers`,
        {
          method: 'POST',
          headers: {
            'X-App-Id': server.serverKey.app_id,
            'X-App-Token': server.serverKey.app_token,
            ...json,
            'Content-Length': '25',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
          );
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.write('{"source_id":'), 30);
      setTimeout(() => req.end('"by-pieces"}'), 60);
    });
    assert.deepEqual([answer.status, answer.body.source_id], [200, 'by-pieces']);
  });

  it('takes a JSON body of blanks as an empty object, as an empty one', async () => {
    for (const raw of ['', '  \n\t']) {
      const res = await server.request('POST', '/v1/oauth/introspect', { raw, headers: json });
      assert.deepEqual(
        { status: res.status, body: res.body },
        {
          status: 400,
          body: errorBody(res, {
            code: 400,
            key: 'missing_parameters',
            message: 'Missing parameters',
            details: 'access_token is required',
          }),
        },
      );
    }
  });

  it('reads a form body into its fields', async () => {
    const res = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        'X-App-Id': server.serverKey.app_id,
        'X-App-Token': server.serverKey.app_token,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=products%20customers',
    });
    const token = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 200);
    assert.equal(token.scope, 'products customers');
  });

  it('never answered a 500', () => {
    assert.deepEqual(server.logged, []);
  });
});
