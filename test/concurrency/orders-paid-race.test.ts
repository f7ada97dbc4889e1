import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onOrderPaid } from '../../src/modules/orders/order-paid.seam.js';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ENV = { PROMO_APP_ID: 'paid-race-app', PROMO_APP_TOKEN: 'paid-race-token' };
const ORDERS = 25;
/** The later side's delay in round r: 5 ms, then four times longer each round (5, 20, 80, 320…). */
const headStartMs = (round: number) => 5 * 4 ** round;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Activity {
  type: string;
  data: { data: { order: { source_id: string } }; event_source: { api_key?: { app_id: string } } };
}

/**
 * Concurrent PUTs to PAID through two `promo serve` processes on one file: each order becomes
 * PAID once (one customer.order.paid event), and the paid-order seam fires in the process
 * that made that change, and only there.
 */
describe('the paid-order seam across two processes', () => {
  let server: TestServer;
  let other: SpawnedServer;
  const firedHere: string[] = [];
  before(async () => {
    server = await startTestServer();
    onOrderPaid(server.deps.seams, async (_trx, paid) => void firedHere.push(paid.order.source_id as string));
    other = await spawnServe(['--db', server.dbFile], ENV);
  });
  after(async () => {
    await other.stop('SIGTERM');
    await server.close();
  });

  const putViaOther = (ref: string, body: unknown) =>
    other.request('PUT', `/v1/orders/${ref}`, body).then((r) => r.status);

  /** One round of races over new orders: each PAID once, the seam fired where it was won; answers the orders won here. */
  async function raceRound(round: number): Promise<{ refs: string[]; wonHere: string[] }> {
    const refs = Array.from({ length: ORDERS }, (_, i) => `race-${round}-${i}`);
    for (const ref of refs) {
      await server.request('POST', '/v1/orders', {
        body: {
          source_id: ref,
          status: 'CREATED',
          customer: { source_id: 'racer' },
          items: [{ quantity: 1, price: 100 }],
        },
      });
    }
    // Which process sends first alternates by order, and the other one's two PUTs of that order
    // leave a head start later. The first round's 5 ms is a true race (both PUTs in flight at
    // once); when one process is steadily slower than that (CI once saw the test process, client
    // and server at once, lose all 150 races at 5 ms), later rounds widen the head start until
    // both have won.
    const puts = refs.flatMap((ref, n) =>
      [0, 1, 2, 3].map(async (i) => {
        const here = (i + n) % 2 === 0;
        if (here !== (n % 2 === 0)) await pause(headStartMs(round));
        const body = { status: 'PAID', metadata: { put: i } };
        return here ? (await server.request('PUT', `/v1/orders/${ref}`, { body })).status : putViaOther(ref, body);
      }),
    );
    assert.deepEqual(new Set(await Promise.all(puts)), new Set([200]));

    const feed = (await server.request('GET', '/v1/customers/racer/activity?limit=100&type=customer.order.paid')).body
      .data as Activity[];
    const paidBy = new Map<string, string[]>();
    for (const event of feed.filter((e) => refs.includes(e.data.data.order.source_id))) {
      const ref = event.data.data.order.source_id;
      paidBy.set(ref, [...(paidBy.get(ref) ?? []), event.data.event_source.api_key?.app_id ?? '']);
    }
    assert.deepEqual([...paidBy.keys()].sort(), [...refs].sort());
    assert.ok(
      [...paidBy.values()].every((apps) => apps.length === 1),
      JSON.stringify([...paidBy]),
    );
    const wonHere = refs.filter((ref) => paidBy.get(ref)?.[0] === server.serverKey.app_id);
    assert.deepEqual(firedHere.filter((ref) => refs.includes(ref)).sort(), wonHere.sort());
    return { refs, wonHere };
  }

  it('makes each order PAID once, firing the seam in the winning process only', async () => {
    // The test is only meaningful once both processes have won races, so it runs up to six
    // rounds (each fully checked, each with a wider head start) until they have.
    let won = 0;
    let total = 0;
    for (let round = 0; round < 6 && (won === 0 || won === total); round++) {
      const { refs, wonHere } = await raceRound(round);
      won += wonHere.length;
      total += refs.length;
    }
    assert.ok(won > 0 && won < total, `this process won ${won} of ${total}: both must race`);
  });
});
