import assert from 'node:assert/strict';
import { jobRegistry } from '../../src/root/job-registry.js';
import type { Deps } from '../../src/app/deps.js';
import type { AsyncActionView } from '../../src/jobs/jobs.presenter.js';
import { startJobRunner, type JobRunner, type RunnerOptions } from '../../src/jobs/runner.js';
import type { TestServer } from './server.js';

/** What an ended job's `result` holds: every type has some of these fields (voucherify-facts 2.2). */
export interface JobResult {
  message: string;
  done_count: number;
  failed_count?: number;
  failed?: Array<{ code?: string; reason: string }>;
  reports?: string[];
}

/** GET /v1/async-actions/{id} of an ended job. */
export type EndedJob = AsyncActionView & { result: JobResult };

/** A runner for tests: the app's registry, one worker thread, quick polling. Stop it in `after`. */
export const testRunner = (deps: Deps, options: Partial<RunnerOptions> = {}): JobRunner =>
  startJobRunner(deps, { workers: 1, registry: jobRegistry, pollMs: 50, ...options });

/**
 * Polls GET /v1/async-actions/{id} until the job ends; returns its final body. The cap only
 * turns a job that never ends into a failure rather than a hang (no test times a job with it):
 * PostgreSQL's imports make a round trip per statement, ~40 s for 6,000 CSV rows at a load of 18.
 */
export async function waitForJob(server: TestServer, id: string, timeoutMs = 120_000): Promise<EndedJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.request<EndedJob>('GET', `/v1/async-actions/${id}`);
    assert.equal(res.status, 200);
    if (res.body.status === 'DONE' || res.body.status === 'FAILED') return res.body;
    if (Date.now() > deadline) assert.fail(`job ${id} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
