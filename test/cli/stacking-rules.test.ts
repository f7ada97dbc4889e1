import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_STACKING_RULES } from '../../src/engine/stacking/index.js';
import { runCli } from '../support/cli.js';
import { freshDatabase } from '../support/engine.js';

describe('promo stacking-rules', () => {
  it('shows the defaults, sets rules as PUT /v1/stacking-rules does, and refuses bad ones with the API error body', async () => {
    const db = await freshDatabase();
    const shown = await runCli(['stacking-rules', '--db', db, '--json']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(JSON.parse(shown.stdout), DEFAULT_STACKING_RULES);

    const set = await runCli([
      'stacking-rules',
      'set',
      '--db',
      db,
      '--applicable-limit',
      '3',
      '--mode',
      'PARTIAL',
      '--sorting',
      'CATEGORY_HIERARCHY',
      '--if-no-effect',
      'SKIP',
    ]);
    assert.equal(set.code, 0, set.stderr);
    const expected = {
      ...DEFAULT_STACKING_RULES,
      applicable_redeemables_limit: 3,
      redeemables_application_mode: 'PARTIAL',
      redeemables_sorting_rule: 'CATEGORY_HIERARCHY',
      redeemables_no_effect_rule: 'SKIP',
    };
    assert.equal(
      set.stdout,
      `${Object.entries(expected)
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        .join('\n')}\n`,
    );
    assert.deepEqual(JSON.parse((await runCli(['stacking-rules', 'show', '--db', db, '--json'])).stdout), expected);

    const usage = await runCli(['stacking-rules', 'set', '--db', db, '--applicable-limit', '31', '--mode', 'SOME']);
    assert.deepEqual(
      { code: usage.code, stderr: usage.stderr },
      {
        code: 2,
        stderr: 'error: --applicable-limit must be an integer from 1 to 30; --mode must be one of: ALL, PARTIAL\n',
      },
    );
    assert.equal((await runCli(['stacking-rules', 'set', '--db', db])).code, 2, 'nothing to set');

    const failed = await runCli([
      'stacking-rules',
      'set',
      '--db',
      db,
      '--redeemables-limit',
      '2',
      '--exclusive-categories',
      'cat_a',
    ]);
    assert.equal(failed.code, 1);
    assert.deepEqual(JSON.parse(failed.stderr), {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'applicable_redeemables_limit must be at most redeemables_limit',
    });
    const unknown = await runCli(['stacking-rules', 'set', '--db', db, '--exclusive-categories', 'cat_a,cat_b']);
    assert.equal(unknown.code, 1);
    assert.deepEqual(JSON.parse(unknown.stderr), {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find category with id cat_a',
      resource_id: 'cat_a',
      resource_type: 'category',
    });
    assert.deepEqual(
      JSON.parse((await runCli(['stacking-rules', '--db', db, '--json'])).stdout),
      expected,
      'the refusals changed nothing',
    );
  });
});
