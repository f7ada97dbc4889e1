import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshDatabase } from '../support/engine.js';
import { runCli, spawnServe, type SpawnedServer } from '../support/cli.js';

const ENV = { PROMO_APP_ID: 'balance-cli-app', PROMO_APP_TOKEN: 'balance-cli-token' };

/** `promo balance` and `promo loyalty transactions` on the file a running `promo serve` uses. */
/** A loyalty card as GET /v1/vouchers/{code} answers it, with the field the tests read. */
interface Card {
  loyalty_card: { balance: number };
}

describe('promo balance and promo loyalty transactions', () => {
  let db: string;
  let server: SpawnedServer;
  let cardId: string;
  before(async () => {
    db = await freshDatabase();
    server = await spawnServe(['--db', db], ENV);
    const campaign = await api('POST', '/v1/campaigns', {
      name: 'CLI program',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    cardId = (await api('POST', `/v1/campaigns/${campaign.id}/vouchers`, { code: 'CLI-1' })).id;
  });
  after(async () => server.stop('SIGTERM'));

  async function api<T = { id: string }>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-App-Id': ENV.PROMO_APP_ID, 'X-App-Token': ENV.PROMO_APP_TOKEN, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json() as Promise<T>;
  }
  const promo = (...args: string[]) => runCli([...args, '--db', db]);
  const answer = (points: number, total: number, balance: number) => ({
    points,
    total,
    balance,
    type: 'loyalty_card',
    object: 'balance',
    related_object: { type: 'voucher', id: cardId },
    operation_type: 'MANUAL',
  });

  it('adds and removes points beside the running server, which sees every change', async () => {
    const [added, viaApi] = await Promise.all([
      promo('balance', 'CLI-1', '+100', '--expires', 'never', '--reason', 'welcome', '--json'),
      api<{ object: string }>('POST', '/v1/loyalties/members/CLI-1/balance', { points: 10 }),
    ]);
    assert.equal(added.code, 0, added.stderr);
    const first = JSON.parse(added.stdout);
    assert.equal(viaApi.object, 'balance');
    // Whichever committed first, the two changes add up.
    assert.deepEqual([first.points, first.total + first.balance], [100, first.balance === 100 ? 200 : 220]);
    const removed = await promo('balance', 'CLI-1', '-30', '--source-id', 'till-1');
    assert.deepEqual(removed, { code: 0, stdout: 'CLI-1: balance 80 points (-30)\n', stderr: '' });
    const again = await promo('balance', 'CLI-1', '-30', '--source-id', 'till-1', '--json');
    assert.deepEqual([again.code, JSON.parse(again.stdout)], [0, answer(-30, 110, 80)]);
    assert.deepEqual((await api<Card>('GET', '/v1/vouchers/CLI-1')).loyalty_card.balance, 80);
  });

  it('fails with the error body (exit 1) or a usage error (exit 2), changing nothing', async () => {
    const over = await promo('balance', 'CLI-1', '-81');
    assert.deepEqual(
      [over.code, over.stdout, JSON.parse(over.stderr)],
      [
        1,
        '',
        {
          code: 400,
          key: 'loyalty_card_points_exceeded',
          message: 'Loyalty card points exceeded',
          details: 'Cannot take 81 points from CLI-1: its balance is 80',
        },
      ],
    );
    assert.deepEqual(await promo('balance', 'CLI-1', 'lots'), {
      code: 2,
      stdout: '',
      stderr: 'error: the change must be a non-zero whole number such as +100 or -30, got lots\n',
    });
    assert.deepEqual(await promo('balance', 'CLI-1', '+5', '--expires', 'soon'), {
      code: 2,
      stdout: '',
      stderr: 'error: --expires must be a date (YYYY-MM-DD) or never\n',
    });
    const unknown = await promo('balance', 'NOPE', '+5');
    assert.deepEqual([unknown.code, JSON.parse(unknown.stderr).key], [1, 'not_found']);
    assert.deepEqual((await api<Card>('GET', '/v1/vouchers/CLI-1')).loyalty_card.balance, 80);
  });

  it("prints the card's transactions as a table, and as the API's list with --json", async () => {
    const json = await promo('loyalty', 'transactions', 'CLI-1', '--json');
    const page = await api<{ data: [{ id: string; created_at: string }] }>(
      'GET',
      '/v1/loyalties/members/CLI-1/transactions',
    );
    assert.deepEqual([json.code, JSON.parse(json.stdout)], [0, page]);
    const table = await promo('loyalty', 'transactions', 'CLI-1', '--limit', '1');
    const removal = page.data[0];
    assert.deepEqual(
      table.stdout.split('\n').map((line) => line.trimEnd().split(/\s{2,}/)),
      [
        ['ID', 'CREATED', 'TYPE', 'CHANGE', 'BALANCE', 'SOURCE ID', 'SOURCE', 'REASON'],
        [removal.id, removal.created_at, 'POINTS_REMOVAL', '-30', '80', 'till-1', 'CLI'],
        ['more: --starting-after-id ' + removal.id],
        [''],
      ],
    );
  });
});
