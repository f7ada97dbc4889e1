import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JobType } from '../../src/lib/enums.js';
import { jobRegistry } from '../../src/root/job-registry.js';
import { sweepRegistry } from '../../src/root/sweep-registry.js';
import { seamSubscriptions } from '../../src/root/subscriptions.js';

describe('the job registry', () => {
  it('loads, for each job type, a job step', async () => {
    // Every type of the enum runs (an async action of a type without a step would wait forever), and nothing else.
    assert.deepEqual(Object.keys(jobRegistry.types).sort(), Object.values(JobType).sort());
    assert.equal(Object.keys(jobRegistry.types).length, 18);
    for (const [type, entry] of Object.entries(jobRegistry.types)) {
      const step = await entry.step();
      assert.deepEqual([typeof step?.run, typeof step?.finish], ['function', 'function'], type);
      assert.ok(Number.isInteger(entry.firstPortion) && entry.firstPortion > 0, type);
    }
  });

  it('is found by worker threads at its home: the module that exports it', async () => {
    assert.equal(((await import(jobRegistry.home)) as { jobRegistry: unknown }).jobRegistry, jobRegistry);
  });

  it('loads every sweep and every seam subscription as a function', async () => {
    for (const sweep of sweepRegistry) assert.equal(typeof (await sweep.run()), 'function', sweep.name);
    for (const load of seamSubscriptions) assert.equal(typeof (await load()), 'function');
  });
});
