import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

describe('GET /health', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers ok without credentials, with a request id', async () => {
    const res = await server.request('GET', '/health', { auth: 'none' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
    assert.match(res.headers.get('x-request-id') ?? '', /^v-[0-9a-f]{18}$/);
  });
});
