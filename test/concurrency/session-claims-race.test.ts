import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { AppError } from '../../src/lib/errors.js';
import { BUSY_MS, withSessionKey } from '../../src/modules/sessions/session-locks.service.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2026-05-04T10:00:00.000Z';

/**
 * One request at a time per session key (withSessionKey): a request that outlives its claim
 * (BUSY_MS) lets the next one claim the key; when the slow one ends, it clears only its own
 * claim, so a third request is still refused while the second runs.
 */
describe('session key claims', () => {
  const clock = fixedClock(NOW);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    await server.close();
  });

  const refusal = (error: unknown) => (error instanceof AppError ? error.toBody() : String(error));

  it("a slow request's end never clears the claim of the request that took the key after it", async () => {
    const deps = server.deps;
    let releaseSecond!: () => void;
    let second!: Promise<string>;
    await withSessionKey(deps, 'slow-key', async () => {
      clock.advance(BUSY_MS + 1); // the first request outlives its claim
      let claimed!: () => void;
      const running = new Promise<void>((resolve) => (claimed = resolve));
      second = withSessionKey(deps, 'slow-key', async () => {
        claimed();
        await new Promise<void>((resolve) => (releaseSecond = resolve));
        return 'second done';
      });
      await running;
    });
    const third = await withSessionKey(deps, 'slow-key', async () => 'third ran').catch(refusal);
    assert.deepEqual(third, {
      code: 400,
      key: 'multiple_requests',
      message: 'Multiple requests',
      details: 'Another request on session slow-key is running',
    });
    releaseSecond();
    assert.equal(await second, 'second done');
    assert.equal(await withSessionKey(deps, 'slow-key', async () => 'fourth ran'), 'fourth ran');
    assert.deepEqual(sqliteOf(deps).prepare("SELECT busy_until FROM session_locks WHERE key = 'slow-key'").get(), {
      busy_until: null,
    });
  });
});
