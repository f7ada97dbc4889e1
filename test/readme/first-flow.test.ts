import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROMO_BIN, spawnServe, type SpawnedServer } from '../support/cli.js';
import { tempDir } from '../support/db.js';

/**
 * The README's first flow, run as written: its `<!-- first-flow: curl -->` blocks with bash
 * against `promo serve` on a temp database, its `<!-- first-flow: sdk -->` blocks as one ESM
 * script through @voucherify/sdk against another, and its `orders.json` through `promo import`.
 * Each block's output must be the `<!-- first-flow: answer -->` (or `import-answer`) block that
 * follows it. The only change to the README's lines is the one the README invites: the
 * `export PROMO=... APP_ID=... APP_TOKEN=...` line names this test's server and key.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const STEP = '@@ step';

interface Block {
  kind: string;
  body: string;
}

/** Every fenced block right after a `<!-- first-flow: KIND -->` comment, in README order. */
export function flowBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/<!-- first-flow: ([\w.-]+) -->\n```[^\n]*\n([\s\S]*?)\n```/g)) {
    blocks.push({ kind: match[1] as string, body: match[2] as string });
  }
  return blocks;
}

/** The blocks of one kind, each with the answer that follows it before the next of its kind ('' when none). */
function stepsOf(blocks: Block[], kind: string, answerKind: string): { code: string; answer: string }[] {
  const steps: { code: string; answer: string }[] = [];
  for (const block of blocks) {
    if (block.kind === kind) steps.push({ code: block.body, answer: '' });
    else if (block.kind === answerKind && steps.length > 0) {
      const last = steps[steps.length - 1] as { code: string; answer: string };
      if (last.answer === '') last.answer = block.body;
    }
  }
  return steps;
}

const EXPORT_LINE = /^export PROMO=\S+ APP_ID=\S+ APP_TOKEN=\S+$/m;

function run(
  command: string,
  args: string[],
  script: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PROMO_')));
    const child = spawn(command, args, { cwd: options.cwd, env: { ...env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(script);
  });
}

/** Splits a run's output at the step markers and compares each step's output with its answer. */
function assertSteps(steps: { code: string; answer: string }[], stdout: string): void {
  const outputs = stdout.split(`${STEP}\n`);
  assert.equal(outputs.length, steps.length + 1, `one output per step:\n${stdout}`);
  steps.forEach((step, i) => {
    assert.equal((outputs[i] as string).trim(), step.answer.trim(), `step ${i}:\n${step.code}`);
  });
}

describe("the README's first flow", () => {
  const blocks = flowBlocks(README);
  const appId = 'readme-app';
  const appToken = randomBytes(12).toString('hex');
  const env = { PROMO_APP_ID: appId, PROMO_APP_TOKEN: appToken, PROMO_LOG_LEVEL: 'warn', PROMO_WORKERS: '1' };
  const dir = tempDir('promo-readme-');
  const curlDb = join(dir, 'curl.db');
  let curlServer: SpawnedServer;

  before(async () => {
    curlServer = await spawnServe(['--db', curlDb], env);
  });
  after(async () => {
    await curlServer?.stop();
  });

  it('has the steps it promises: set-up, then a product to the balances after the rollback', () => {
    const curl = stepsOf(blocks, 'curl', 'answer');
    const sdk = stepsOf(blocks, 'sdk', 'answer');
    assert.ok(curl.length >= 9, `${curl.length} curl steps`);
    assert.equal(sdk.length, curl.length, 'a SDK step for each curl step');
    assert.match(curl[0]?.code ?? '', EXPORT_LINE);
    assert.equal(curl[0]?.answer, '', 'the set-up prints nothing');
    for (const step of curl.slice(1)) assert.notEqual(step.answer, '', step.code);
    assert.match(
      sdk[0]?.code ?? '',
      /import voucherify from '@voucherify\/sdk';\nconst \{ VoucherifyServerSide \} = voucherify;/,
    );
  });

  it('runs with curl, each step answering what the README shows, and leaves the balances it says', async () => {
    const steps = stepsOf(blocks, 'curl', 'answer');
    const script = [
      'set -euo pipefail',
      ...steps.map(
        (step) =>
          `${step.code.replace(EXPORT_LINE, `export PROMO=${curlServer.url} APP_ID=${appId} APP_TOKEN=${appToken}`)}\necho '${STEP}'`,
      ),
    ].join('\n');
    const result = await run('bash', [], script, { cwd: dir, env: {} });
    assert.equal(result.code, 0, result.stderr);
    assertSteps(steps, result.stdout);

    // The last answer is the balances after the rollback: the coupon unused, the card whole.
    const final = (steps[steps.length - 1] as { answer: string }).answer.split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(final.slice(0, 2), [
      { code: 'SUMMER10', redeemed_quantity: 0, balance: null },
      { code: 'GIFT-50', redeemed_quantity: 0, balance: 5000 },
    ]);
    // ...and the server agrees, asked on its own.
    const card = await curlServer.request('GET', '/v1/vouchers/GIFT-50');
    assert.equal(card.body.gift.balance, 5000);
    const coupon = await curlServer.request('GET', '/v1/vouchers/SUMMER10');
    assert.equal(coupon.body.redemption.redeemed_quantity, 0);
    const transactions = await curlServer.request('GET', '/v1/vouchers/GIFT-50/transactions');
    assert.deepEqual(
      transactions.body.data.map((t: { type: string }) => t.type),
      ['CREDITS_REFUND', 'CREDITS_REDEMPTION', 'CREDITS_ADDITION'],
    );
  });

  it('imports orders.json with `promo import`, printing what the README shows', async () => {
    const orders = blocks.find((b) => b.kind === 'orders.json');
    const commands = blocks.find((b) => b.kind === 'import');
    const answer = blocks.find((b) => b.kind === 'import-answer');
    assert.ok(orders && commands && answer, 'the orders.json, import and import-answer blocks');
    writeFileSync(join(dir, 'orders.json'), `${orders.body}\n`);
    // `npx promo` in the repository's folder runs bin/promo; here the script runs in a temp
    // folder beside orders.json, so npx is that, and PROMO_DB names the curl flow's database
    // (the README's `./promo.db`) while its server runs, as the README has it.
    const script = [
      'set -euo pipefail',
      `npx() { if [ "$1" = promo ]; then shift; "${process.execPath}" "${PROMO_BIN}" "$@"; else command npx "$@"; fi; }`,
      commands.body,
    ].join('\n');
    const result = await run('bash', [], script, { cwd: dir, env: { PROMO_DB: curlDb } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), answer.body.trim());

    const order = await curlServer.request('GET', '/v1/orders/order-3');
    assert.equal(order.status, 200);
    assert.deepEqual(
      { status: order.body.status, amount: order.body.amount, created_at: order.body.created_at },
      { status: 'PAID', amount: 2400, created_at: '2026-02-03T16:30:00.000Z' },
    );
    const bob = await curlServer.request('GET', '/v1/customers/bob');
    assert.equal(bob.body.summary.orders.total_count, 1);
  });

  it('runs with @voucherify/sdk (imported from ESM as a default), each step printing what the README shows', async () => {
    const sdkServer = await spawnServe(['--db', join(dir, 'sdk.db')], env);
    try {
      const steps = stepsOf(blocks, 'sdk', 'answer');
      const script = steps.map((step) => `${step.code}\nconsole.log('${STEP}');`).join('\n');
      // Run from the repository's folder, where @voucherify/sdk is installed.
      const result = await run(process.execPath, ['--input-type=module'], script, {
        cwd: ROOT,
        env: { PROMO: sdkServer.url, APP_ID: appId, APP_TOKEN: appToken },
      });
      assert.equal(result.code, 0, result.stderr);
      assertSteps(steps, result.stdout);
    } finally {
      await sdkServer.stop();
    }
  });
});
