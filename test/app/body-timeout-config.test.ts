import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_BODY_TIMEOUT_MS, parseBodyTimeoutMs } from '../../src/app/config.js';

describe('PROMO_BODY_TIMEOUT_MS', () => {
  it('defaults to 30 s and takes whole milliseconds from 1 to 240,000', () => {
    assert.deepEqual(
      [DEFAULT_BODY_TIMEOUT_MS, parseBodyTimeoutMs(undefined), parseBodyTimeoutMs('1'), parseBodyTimeoutMs('240000')],
      [30_000, 30_000, 1, 240_000],
    );
  });

  it('refuses anything else with a sentence that names the setting and its range', () => {
    for (const value of ['0', '240001', '1.5', 'soon', '-5']) {
      assert.throws(() => parseBodyTimeoutMs(value), {
        message: `Invalid PROMO_BODY_TIMEOUT_MS: ${value} (milliseconds, 1..240000)`,
      });
    }
  });
});
