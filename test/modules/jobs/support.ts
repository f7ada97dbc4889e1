import assert from 'node:assert/strict';
import { startJobRunner, type JobRunner, type RunnerOptions } from '../../../src/jobs/runner.js';
import type { Deps } from '../../../src/app/deps.js';
import { assertMatchesReference, assertMatchesSchema } from '../../support/openapi.js';
import type { TestServer } from '../../support/server.js';

/**
 * Helpers for campaign, voucher and job tests.
 *
 * The reference's schemas type many voucher and campaign fields as plain strings or objects
 * that the real API answers as null (`category`, `gift` of a discount voucher, dates...), so a
 * body is checked against the reference without its null fields; every other field is checked.
 */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)])) as T;
}

const RESULT_SCHEMA: Record<string, string> = {
  'CAMPAIGN.VOUCHERS_GENERATE': '17_res_obj_get_async_action_result_campaign_vouchers_generate',
  'CAMPAIGN.VOUCHERS_IMPORT': '17_res_obj_get_async_action_result_campaign_vouchers_import',
  'CAMPAIGN.VOUCHERS_UPDATE': '17_res_obj_get_async_action_result_campaign_vouchers_update',
  'CAMPAIGN.VOUCHERS_DELETE': '17_res_obj_get_async_action_result_campaign_vouchers_delete',
};

/**
 * GET /v1/async-actions/{id} against the reference. Its `result` is a oneOf of 22 shapes with
 * no required fields, which any object matches several times over; so the action is checked
 * without `result` by the path's schema, and `result` by its own type's component schema.
 */
export function assertAsyncActionMatchesReference(body: { type: string; result?: unknown }): void {
  const { result, ...rest } = body;
  assertMatchesReference('GET', '/v1/async-actions/{asyncActionId}', 200, rest);
  if (result === undefined) return;
  const name = RESULT_SCHEMA[body.type];
  assert.ok(name, `no result schema for ${body.type}`);
  assertMatchesSchema(name, result);
}

/** A runner for tests: one worker thread, quick polling. Stop it in `after`. */
export const testRunner = (deps: Deps, options: Partial<RunnerOptions> = {}): JobRunner =>
  startJobRunner(deps, { workers: 1, pollMs: 50, ...options });

/** Polls GET /v1/async-actions/{id} until the job ends; returns its final body. */
export async function waitForJob(server: TestServer, id: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.request('GET', `/v1/async-actions/${id}`);
    assert.equal(res.status, 200);
    if (res.body.status === 'DONE' || res.body.status === 'FAILED') return res.body;
    if (Date.now() > deadline) assert.fail(`job ${id} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const percentDiscount = { type: 'PERCENT', percent_off: 10 };

/** A DISCOUNT_COUPONS campaign body. */
export const discountCampaign = (name: string, extra: Record<string, unknown> = {}, voucher: Record<string, unknown> = {}) => ({
  name,
  campaign_type: 'DISCOUNT_COUPONS',
  voucher: { type: 'DISCOUNT_VOUCHER', discount: percentDiscount, ...voucher },
  ...extra,
});
