import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from '../support/cli.js';
import { freshDatabase, onPostgres } from '../support/engine.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { expectedSignature, startReceiver, type Receiver } from '../support/webhook-receiver.js';

/** `promo webhooks add | list | remove | test | deliveries | replay`, the binary on a real file. */
const ENV = { PROMO_WEBHOOK_TIMEOUT_MS: '2000' };
const cli = (args: string[], db: string) => runCli(['webhooks', ...args, '--db', db], { env: ENV });

describe('promo webhooks', () => {
  const receivers: Receiver[] = [];
  let server: TestServer | undefined;
  after(async () => {
    for (const r of receivers) await r.close();
    await server?.close();
  });

  it('adds, lists, tests and removes webhooks, with the API error bodies', async () => {
    const db = await freshDatabase();
    const receiver = await startReceiver((i) => (i === 0 ? 204 : 500));
    receivers.push(receiver);
    const added = await cli(['add', receiver.url, '--events', 'redemption.succeeded,publication.succeeded'], db);
    assert.equal(added.code, 0, added.stderr);
    const [, id, secret] = /^id: (wh_[0-9A-Za-z]{16})\nsecret: ([0-9a-f]{64})\n$/.exec(added.stdout) ?? [];
    assert.ok(id && secret, added.stdout);
    assert.equal(added.stderr, 'The secret is shown only now; store it safely.\n');

    const json = await cli(
      ['add', 'https://erp.example/in', '--events', 'voucher.gift.balance_added', '--inactive', '--json'],
      db,
    );
    const second = JSON.parse(json.stdout);
    assert.deepEqual(second, {
      object: 'webhook',
      created_at: second.created_at,
      id: second.id,
      events: ['voucher.gift.balance_added'],
      target_url: 'https://erp.example/in',
      active: false,
      secret: second.secret,
    });

    const listed = JSON.parse((await cli(['list', '--json'], db)).stdout);
    const first = listed[0];
    assert.deepEqual(listed, [
      {
        object: 'webhook',
        created_at: first.created_at,
        id,
        events: ['redemption.succeeded', 'publication.succeeded'],
        target_url: receiver.url,
        active: true,
      },
      {
        object: 'webhook',
        created_at: second.created_at,
        id: second.id,
        events: ['voucher.gift.balance_added'],
        target_url: 'https://erp.example/in',
        active: false,
      },
    ]);
    const table = await cli(['list'], db);
    const widths = [19, 8, 24, 42];
    const line = (cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join('  ');
    assert.equal(
      table.stdout,
      `${[
        line(['ID', 'STATE', 'CREATED', 'EVENTS', 'TARGET URL']),
        line([id, 'active', first.created_at, 'redemption.succeeded,publication.succeeded', receiver.url]),
        line([second.id, 'inactive', second.created_at, 'voucher.gift.balance_added', 'https://erp.example/in']),
      ].join('\n')}\n`,
    );
    assert.ok(!table.stdout.includes(secret) && !JSON.stringify(listed).includes(secret), 'never the secret again');

    const tested = await cli(['test', id], db);
    assert.deepEqual([tested.code, tested.stdout], [0, `HTTP 204 from ${receiver.url}\n`]);
    const [got] = receiver.received;
    assert.equal(got!.headers['x-voucherify-signature'], expectedSignature(secret, got!.body));
    assert.deepEqual(got!.json.data, { message: 'A test event sent by promo webhooks test' });
    assert.equal(got!.json.type, 'webhook.test');
    const refused = await cli(['test', id], db);
    assert.equal(refused.code, 1);
    assert.deepEqual(JSON.parse(refused.stderr), {
      code: 400,
      key: 'webhook_test_failed',
      message: 'Webhook test failed',
      details: `${receiver.url}: HTTP 500: refused 1`,
    });

    const bad = await cli(['add', 'ftp://files.example', '--events', 'redemption.succeeded,order.paid'], db);
    assert.equal(bad.code, 1);
    assert.deepEqual(JSON.parse(bad.stderr), {
      code: 400,
      key: 'invalid_payload',
      message: 'Invalid payload',
      details: 'target_url must be an absolute http or https URL; events: unknown event type order.paid',
    });

    assert.deepEqual(await cli(['remove', second.id], db), { code: 0, stdout: `removed ${second.id}\n`, stderr: '' });
    const gone = await cli(['remove', second.id], db);
    assert.equal(gone.code, 1);
    assert.deepEqual(JSON.parse(gone.stderr), {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: `Cannot find webhook with id ${second.id}`,
      resource_id: second.id,
      resource_type: 'webhook',
    });
  });

  it('lists deliveries and replays an event', async () => {
    // The API (no sender running) stores a redemption's event; the command sends it.
    server = await startTestServer();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = (
      await server.request('POST', '/management/v1/projects/proj_promo/webhooks', {
        body: { target_url: receiver.url, events: ['redemption.succeeded'] },
      })
    ).body;
    await server.request('POST', '/v1/vouchers/CLI-HOOK', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    const redemption = (
      await server.request('POST', '/v1/vouchers/CLI-HOOK/redemption', { body: { order: { amount: 1000 } } })
    ).body;

    const pending = JSON.parse((await cli(['deliveries', hook.id, '--json'], server.dbFile)).stdout);
    assert.equal(pending.length, 1);
    const [owed] = pending;
    // Due at once: at the event's time on SQLite; on PostgreSQL at the database's clock when the
    // command fanned it out (servers' clocks may differ: docs/webhooks.md), so a moment later.
    const dueAt = onPostgres() ? owed.next_attempt_at : redemption.date;
    assert.ok(dueAt >= redemption.date && dueAt <= new Date().toISOString(), dueAt);
    assert.deepEqual(owed, {
      object: 'webhook_delivery',
      id: owed.id,
      webhook_id: hook.id,
      event: { id: owed.event.id, type: 'redemption.succeeded' },
      status: 'PENDING',
      attempts: 0,
      next_attempt_at: dueAt,
      last_status: null,
      last_error: null,
      created_at: redemption.date,
      finished_at: null,
    });
    const table = await cli(['deliveries', hook.id], server.dbFile);
    assert.equal(
      table.stdout.split('\n')[0],
      'DELIVERY                      EVENT                 TYPE                  STATUS   ATTEMPTS  NEXT ATTEMPT              LAST ERROR',
    );
    assert.equal(
      table.stdout.split('\n')[1],
      `${owed.id}  ${owed.event.id}  redemption.succeeded  PENDING  0         ${dueAt}  -`,
    );

    // The replay goes at the end of the queue: the owed delivery leaves first, then the replay.
    const replayed = await cli(['replay', owed.event.id, '--json'], server.dbFile);
    assert.equal(replayed.code, 0, replayed.stderr);
    const [again] = JSON.parse(replayed.stdout);
    assert.deepEqual(
      [again.webhook_id, again.event, again.status, again.attempts, again.last_status],
      [hook.id, owed.event, 'DELIVERED', 1, 200],
    );
    assert.deepEqual(
      receiver.received.map((r) => [r.json.id, r.json.event.id]),
      [
        [owed.id, owed.event.id],
        [again.id, owed.event.id],
      ],
    );

    const unknown = await cli(['replay', 'evt_unknown'], server.dbFile);
    assert.deepEqual(JSON.parse(unknown.stderr), {
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find event with id evt_unknown',
      resource_id: 'evt_unknown',
      resource_type: 'event',
    });
    const usage = await cli(['deliveries', hook.id, '--limit', '0'], server.dbFile);
    assert.deepEqual(
      { code: usage.code, stderr: usage.stderr },
      { code: 2, stderr: 'error: --limit must be an integer from 1 to 100\n' },
    );
  });
});
