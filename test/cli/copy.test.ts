import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { giftCard, percentVoucher } from '../api/redemptions/fixtures.js';
import { runCli } from '../support/cli.js';
import { freshDbFile } from '../support/db.js';
import { postgresForTests, type TestPostgres } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const found = await postgresForTests();

/** Reads both servers answer alike: the source's answers are taken before the copy, the copy's after. */
type Reads = Array<[string, string]>;

/**
 * Data of most kinds, made through the API on a SQLite file: vouchers, a gift card spent and
 * a spend rolled back, customers and orders, a loyalty program with a member and points,
 * validation rules, stacking rules, a webhook (and its outbox's deliveries). Answers the paths
 * whose answers must be the same on the copy.
 */
async function makeData(server: TestServer): Promise<string[]> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { body });
    assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
    return res.body;
  };
  const hook = await ok('POST', '/management/v1/projects/proj_promo/webhooks', {
    target_url: 'https://crm.example/hooks',
    events: ['redemption.succeeded'],
  });
  await ok('PUT', '/v1/stacking-rules', { applicable_redeemables_limit: 4 });
  const rule = await ok('POST', '/v1/validation-rules', {
    name: 'Twice each',
    rules: { '1': { name: 'redemption.count.per_customer', conditions: { $less_than: [2] } }, logic: '1' },
  });
  await percentVoucher(server, 'COPY-PCT', { validation_rules: [rule.id], metadata: { note: 'ü "q"' } });
  // A NUL in metadata, as a file made before the API refused NUL holds it (its escape `\u0000`
  // in the JSON text): the copy must carry it, and so must the redemptions' snapshots below.
  sqliteOf(server.deps)
    .prepare("UPDATE vouchers SET metadata = ? WHERE code = 'COPY-PCT'")
    .run(JSON.stringify({ note: 'ü \u0000 "q"' }));
  await giftCard(server, 'COPY-GIFT', 1000);
  const spend = (customer: string, credits: number) =>
    ok('POST', '/v1/redemptions', {
      customer: { source_id: customer, name: customer.toUpperCase(), address: { city: 'Kraków' } },
      order: { source_id: `order-${customer}-${credits}`, amount: 500, items: [{ quantity: 2, price: 250 }] },
      redeemables: [
        { object: 'voucher', id: 'COPY-PCT' },
        { object: 'voucher', id: 'COPY-GIFT', gift: { credits } },
      ],
    });
  const first = await spend('ann', 100);
  await spend('bob', 30);
  await ok('POST', `/v1/redemptions/${first.redemptions[1].id}/rollback`, {});
  await ok('POST', '/v1/orders', { source_id: 'paid-1', status: 'PAID', amount: 1200, customer: { source_id: 'cid' } });
  const program = await ok('POST', '/v1/loyalties', {
    name: 'Stars',
    voucher: { loyalty_card: { points: 0 }, code_config: { pattern: 'S-######' } },
  });
  const member = await ok('POST', `/v1/loyalties/${program.id}/members`, { customer: { source_id: 'ann' } });
  await ok('POST', `/v1/loyalties/members/${member.code}/balance`, { points: 40 });
  const ann = await ok('GET', '/v1/customers/ann');
  return [
    '/v1/vouchers/COPY-PCT',
    '/v1/vouchers/COPY-GIFT',
    `/v1/vouchers/${member.code}`,
    '/v1/customers/ann',
    `/v1/customers/${ann.id}/activity`,
    '/v1/customers?limit=10',
    '/v1/orders?limit=10',
    '/v1/redemptions?limit=10',
    `/v1/redemptions/${first.parent_redemption.id}`,
    `/v1/loyalties/${program.id}/members/${member.code}`,
    `/v1/loyalties/members/${member.code}/transactions`,
    '/v1/publications?limit=10',
    '/v1/validation-rules',
    '/v1/stacking-rules',
    // A webhook's GET fans its waiting events out into deliveries first: the copy carries both.
    `/management/v1/projects/proj_promo/webhooks/${hook.id}`,
    '/management/v1/projects/proj_promo/webhooks',
  ];
}

const readAll = async (server: TestServer, paths: string[]): Promise<Reads> => {
  const reads: Reads = [];
  for (const path of paths) {
    const res = await server.request('GET', path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    reads.push([path, res.text.replaceAll(server.url, '<origin>')]);
  }
  return reads;
};

describe('promo copy --from promo.db --to postgres://…', { skip: found.skip }, () => {
  let postgres: TestPostgres;
  let file: string;
  let paths: string[];
  let before_: Reads;
  let counts: Record<string, number>;
  before(async () => {
    postgres = (found as { server: TestPostgres }).server;
    file = freshDbFile();
    const source = await startTestServer({ dbFile: file });
    try {
      paths = await makeData(source);
      before_ = await readAll(source, paths);
    } finally {
      await source.close();
    }
    const sqlite = new BetterSqlite3(file, { readonly: true });
    const tables = sqlite
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'`,
      )
      .pluck()
      .all() as string[];
    counts = Object.fromEntries(
      tables.map((t) => [t, sqlite.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]),
    );
    sqlite.close();
  });
  after(() => postgres?.close());

  it('copies every table, verified, and a server on the copy answers the reads byte for byte', async () => {
    const url = await postgres.emptyDatabase();
    const copied = await runCli(['copy', '--from', file, '--to', url, '--json']);
    assert.equal(copied.code, 0, copied.stderr);
    const result = JSON.parse(copied.stdout) as { rows: number; tables: Array<{ name: string; rows: number }> };
    assert.deepEqual(Object.fromEntries(result.tables.map((t) => [t.name, t.rows])), counts);
    assert.equal(
      result.rows,
      Object.values(counts).reduce((a, b) => a + b, 0),
    );
    assert.ok(
      counts.redemptions && counts.ledger_entries && counts.webhook_deliveries && counts.loyalty_tiers !== undefined,
    );
    // Not a terminal: a plain line per table as it is copied, then as it is verified.
    const lines = copied.stderr.trim().split('\n');
    assert.equal(lines.length, 2 * result.tables.length, copied.stderr);
    assert.ok(
      lines.every((line) => /^(copied|verified) [a-z_]+ \(\d+\/\d+ rows\)$/.test(line)),
      copied.stderr,
    );

    const copy = await startTestServer({ dbFile: url });
    try {
      assert.deepEqual(await readAll(copy, paths), before_);
      // Counters moved whole into one slot of 16; identities continue past the copied rows.
      const slots = await sql<{ n: number; total: number }>`
        SELECT count(*) AS n, sum(total) AS total FROM customer_counts`.execute(copy.deps.db);
      assert.deepEqual(slots.rows, [{ n: 16, total: counts.customers }]);
      // (A redemption would write the webhook outbox, whose SQL is SQLite's still: docs/postgres.md.)
      for (const [path, body] of [
        ['/v1/vouchers/COPY-NEW', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 5 } }],
        ['/v1/customers', { source_id: 'carl' }],
      ] as const) {
        const made = await copy.request('POST', path, { body });
        assert.equal(made.status, 200, `${made.text} ${JSON.stringify(copy.logged)}`);
      }
      assert.equal((await copy.request('GET', '/v1/customers?limit=1')).body.total, (counts.customers ?? 0) + 1);
    } finally {
      await copy.close();
    }
  });

  it('refuses a target that is not empty, with the error body and exit 1', async () => {
    const url = await postgres.migratedDatabase();
    const refused = await runCli(['copy', '--from', file, '--to', url]);
    assert.equal(refused.code, 1);
    const name = url.replace(/^.*\/([^/?]+)(\?.*)?$/, '$1');
    assert.deepEqual(JSON.parse(refused.stderr.trim().split('\n').at(-1) as string), {
      code: 409,
      key: 'database_not_empty',
      message: 'Database not empty',
      details: `The PostgreSQL database ${name} is not empty: it has 52 table(s) (public.api_keys, public.async_action_failures, public.async_action_items, ...). promo copy writes only into an empty database: CREATE DATABASE <name> TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
    });
    assert.equal(refused.stdout, '');
  });

  it('refuses a source older than this promo, pointing at promo migrate, and leaves the target empty', async () => {
    const older = freshDbFile();
    const sqlite = new BetterSqlite3(older);
    const newest = sqlite.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number;
    sqlite.exec('DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)');
    const version = sqlite.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number;
    sqlite.close();
    const url = await postgres.emptyDatabase();
    const refused = await runCli(['copy', '--from', older, '--to', url]);
    assert.equal(refused.code, 1);
    assert.deepEqual(JSON.parse(refused.stderr.trim().split('\n').at(-1) as string), {
      code: 409,
      key: 'schema_too_old',
      message: 'Database schema is older than this binary',
      details: `${older} is at schema version ${version}; promo copy moves a database at this promo's newest, ${newest}. Take a backup (promo backup), then run promo migrate --db ${older}, and copy again.`,
    });
    const again = await runCli(['copy', '--from', file, '--to', url]);
    assert.equal(again.code, 0, again.stderr);
  });

  it('refuses a --to that is not a PostgreSQL URL as usage (exit 2)', async () => {
    const res = await runCli(['copy', '--from', file, '--to', freshDbFile()]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^error: --to must be a postgres:\/\/ URL of an empty database, not \S+\n$/);
  });
});
