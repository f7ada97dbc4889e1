import assert from 'node:assert/strict';
import { errorBody, type TestResponse } from './server.js';

export interface ExpectedError {
  code: number;
  key: string;
  message: string;
  details: string;
  resource_id?: string;
  resource_type?: string;
}

/** 400 invalid_payload with these details. */
export const invalidPayloadError = (details: string): ExpectedError => ({
  code: 400,
  key: 'invalid_payload',
  message: 'Invalid payload',
  details,
});

/** 400 invalid_query_params with these details. */
export const invalidQueryError = (details: string): ExpectedError => ({
  code: 400,
  key: 'invalid_query_params',
  message: 'Invalid query params',
  details,
});

/** 404 not_found for this resource. */
export const notFoundError = (type: string, id: string): ExpectedError => ({
  code: 404,
  key: 'not_found',
  message: 'Resource not found',
  details: `Cannot find ${type} with id ${id}`,
  resource_id: id,
  resource_type: type,
});

/** The whole error body of an answer, for test/modules/loyalty/refusals.ts's assertRefused. */
export const expectError = (expected: ExpectedError) => (res: TestResponse) => errorBody(res, expected);

/**
 * Any refusal is the documented error body: status below 500, and a 4xx is exactly
 * {code, key, message, details, request_id} (plus resource_id and resource_type where they apply).
 */
export function assertErrorBody(res: TestResponse, what: string): void {
  assert.ok(res.status < 500, `${what}: ${res.status} ${res.text}`);
  if (res.status < 400) return;
  const { code, key, message, details, request_id, resource_id, resource_type, ...rest } = res.body;
  assert.deepEqual(rest, {}, `${what}: unexpected fields`);
  assert.equal(code, res.status, what);
  assert.ok(
    typeof key === 'string' && typeof message === 'string' && typeof details === 'string',
    `${what}: ${res.text}`,
  );
  assert.equal(request_id, res.headers.get('x-request-id'), what);
  if (resource_id !== undefined || resource_type !== undefined) assert.ok(typeof resource_type === 'string', what);
}
