import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jobRegistry } from '../../src/app/job-registry.js';
import { JobType } from '../../src/lib/enums.js';

describe('the job registry', () => {
  it('names, for each job type, a module export that is a job step', async () => {
    // Every type of the enum runs (an async action of a type without a step would wait forever), and nothing else.
    assert.deepEqual(Object.keys(jobRegistry).sort(), Object.values(JobType).sort());
    assert.equal(Object.keys(jobRegistry).length, 18);
    for (const [type, entry] of Object.entries(jobRegistry)) {
      const step = ((await import(entry.step.module)) as Record<string, { run?: unknown; finish?: unknown }>)[entry.step.export];
      assert.deepEqual([typeof step?.run, typeof step?.finish], ['function', 'function'], `${type}: ${entry.step.export} of ${entry.step.module}`);
      assert.ok(Number.isInteger(entry.firstPortion) && entry.firstPortion > 0, type);
    }
  });
});
