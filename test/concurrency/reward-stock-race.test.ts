import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';

const STOCK = 100;
const TRIES_EACH = 60;
const CHILD = new URL('./reward-stock-race.child.ts', import.meta.url).pathname;

/** A racer process; resolves once it is connected and waiting for the start. */
function racer(
  dbFile: string,
  rewardId: string,
): Promise<{ child: ChildProcessWithoutNullStreams; output: Promise<string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbFile, rewardId, String(TRIES_EACH)], {
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk));
  const output = new Promise<string>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`racer exited ${code}: ${err}`)))),
  );
  return new Promise((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.startsWith('ready\n')) resolve({ child, output });
    }),
  );
}

/**
 * A reward's stock is claimed by one guarded statement (docs/architecture.md, Design rules): three processes on one
 * file (two racers and this one, 180 claims for 100 units) sell exactly the stock, never more.
 */
describe('reward stock across processes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('never oversells: exactly the stock is claimed, every other claim is refused', async () => {
    const product = await server.request('POST', '/v1/products', { body: { name: 'Poster' } });
    const reward = await server.request('POST', '/v1/rewards', {
      body: { name: 'Poster', parameters: { product: { id: product.body.id } }, stock: STOCK },
    });
    const racers = await Promise.all([racer(server.dbFile, reward.body.id), racer(server.dbFile, reward.body.id)]);
    for (const { child } of racers) child.stdin.write('go\n');
    const { claimRewardStock } = await import('../../src/modules/rewards/rewards.service.js');
    let wonHere = 0;
    let lostHere = 0;
    for (let i = 0; i < TRIES_EACH; i++) {
      try {
        await server.deps.db.transaction().execute((trx) => claimRewardStock(server.deps, trx, reward.body.id));
        wonHere++;
      } catch (error) {
        assert.equal((error as { key?: string }).key, 'reward_out_of_stock');
        lostHere++;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.all(
      racers.map(
        async ({ output }) => JSON.parse((await output).split('\n')[1] as string) as { won: number; lost: number },
      ),
    );
    const won = wonHere + results.reduce((sum, r) => sum + r.won, 0);
    const lost = lostHere + results.reduce((sum, r) => sum + r.lost, 0);
    assert.deepEqual(
      { won, lost, perRacer: results.map((r) => r.won + r.lost) },
      { won: STOCK, lost: 3 * TRIES_EACH - STOCK, perRacer: [TRIES_EACH, TRIES_EACH] },
    );
    assert.ok(
      results.every((r) => r.won > 0),
      `every process must win some claims to race: ${JSON.stringify(results)} and ${wonHere} here`,
    );
    const after = await server.request('GET', `/v1/rewards/${reward.body.id}`);
    assert.deepEqual({ stock: after.body.stock, redeemed: after.body.redeemed }, { stock: STOCK, redeemed: STOCK });
  });
});
