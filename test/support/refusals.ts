import assert from 'node:assert/strict';
import { dbFingerprint } from './db.js';
import { errorBody, type TestResponse, type TestServer } from './server.js';

export interface ExpectedError {
  code: number;
  key: string;
  message: string;
  details: string;
  resource_id?: string;
  resource_type?: string;
}

/** 400 invalid_payload with these details. */
export const invalidPayloadError = (details: string): ExpectedError => ({ code: 400, key: 'invalid_payload', message: 'Invalid payload', details });

/** 404 not_found for this resource. */
export const notFoundError = (type: string, id: string): ExpectedError => ({
  code: 404,
  key: 'not_found',
  message: 'Resource not found',
  details: `Cannot find ${type} with id ${id}`,
  resource_id: id,
  resource_type: type,
});

/**
 * Asserts a refusal: the request is answered with exactly this error body, and the database is
 * the same before and after it (nothing was written).
 */
export async function assertRefused(server: TestServer, send: () => Promise<TestResponse>, expected: ExpectedError): Promise<void> {
  const before = dbFingerprint(server.deps.sqlite);
  const res = await send();
  assert.equal(res.status, expected.code);
  assert.deepEqual(res.body, errorBody(res, expected));
  assert.equal(dbFingerprint(server.deps.sqlite), before);
}
