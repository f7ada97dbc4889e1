import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ERASED, ERASED_FAILURE_REASON, ERASED_ITEM_REASON } from '../../src/jobs/erasure.service.js';
import type { JobRunner } from '../../src/jobs/runner.js';
import { fixedClock } from '../../src/lib/clock.js';
import { testRunner, waitForJob, type EndedJob } from '../support/jobs.js';
import { assertRefused } from '../modules/loyalty/refusals.js';
import { expectError, notFoundError } from '../support/error-bodies.js';
import { assertMatchesReference } from '../support/openapi.js';
import { serverSideClient } from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { onPostgres } from '../support/engine.js';
import { sqliteOf } from '../support/sqlite.js';

const NOW = '2025-03-01T10:00:00.000Z';
const ZED = {
  source_id: 'zed-crm-4711',
  name: 'Zebulon Quist',
  email: 'zebulon.quist@example.org',
  phone: '+47 9988 7766',
  address: { city: 'Tromsø', line_1: 'Storgata 99' },
};
/** Zed's email before an update: an old version of a row must not linger either. */
const OLD_EMAIL = 'zeb.q.1999@example.net';
/** Every piece of Zed's personal data, as the bytes a search of the file looks for. */
const PERSONAL = [ZED.source_id, ZED.name, ZED.email, OLD_EMAIL, ZED.phone, ZED.address.line_1];

/** What the deletion must leave as it was: the figures of vouchers, ledgers, orders and the list totals. */
function figures(server: TestServer) {
  const q = (text: string) => sqliteOf(server.deps).prepare(text).all();
  return {
    vouchers: q(
      'SELECT code, holder_id, gift_balance, loyalty_balance, redeemed_quantity, publish_count FROM vouchers ORDER BY seq',
    ),
    ledger: q('SELECT id, voucher_id, customer_id, delta, balance FROM ledger_entries ORDER BY seq'),
    orders: q('SELECT id, amount, discount_amount, status FROM orders ORDER BY seq'),
    counts: [
      q('SELECT status, sum(total) AS total FROM order_counts GROUP BY status ORDER BY status'),
      q(
        'SELECT object, result, sum(total) AS total FROM redemption_counts GROUP BY object, result ORDER BY object, result',
      ),
      q('SELECT result, sum(total) AS total FROM publication_counts GROUP BY result ORDER BY result'),
    ],
    redemptions: q('SELECT id, customer_id, amount, result, status FROM redemptions ORDER BY seq'),
  };
}

const fileHas = (file: string, text: string): boolean =>
  existsSync(file) && readFileSync(file).includes(Buffer.from(text, 'utf8'));

/**
 * Whether the database still holds `text`, as far as each engine promises (docs/operations.md):
 * SQLite, any byte of its file or WAL (after a checkpoint); PostgreSQL, any row a SELECT sees
 * in any table (old row versions stay in its files until VACUUM: not promised).
 */
function databaseHolds(server: TestServer, text: string): boolean {
  const rows = sqliteOf(server.deps);
  if (!onPostgres()) return fileHas(server.dbFile, text) || fileHas(`${server.dbFile}-wal`, text);
  const tables = rows
    .prepare('SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()')
    .pluck()
    .all() as string[];
  return tables.some((table) => rows.prepare(`SELECT 1 FROM "${table}" t WHERE strpos(t::text, ?) > 0`).get(text));
}

/** The export files on disk, by name. */
const exportFiles = (server: TestServer): string[] =>
  existsSync(server.deps.exportsDir) ? readdirSync(server.deps.exportsDir).sort() : [];

/** Job data about Zed: exports of customers and redemptions (hold them) and one of orders (ids only), a bulk update's failure report, a staged import. */
interface JobData {
  customerExport: string;
  redemptionExport: string;
  orderExport: string;
  bulk: EndedJob;
  importJob: string;
}

async function exportDone(server: TestServer, body: unknown): Promise<string> {
  const created = await server.request('POST', '/v1/exports', { body });
  assert.equal(created.status, 200, created.text);
  for (let i = 0; i < 400; i += 1) {
    if ((await server.request('GET', `/v1/exports/${created.body.id}`)).body.status === 'DONE')
      return created.body.id as string;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return assert.fail(`export ${created.body.id} did not end`);
}

/** Runs the exports and the bulk update with a runner, then stages an import that no runner takes yet. */
async function jobData(server: TestServer): Promise<JobData> {
  const runner = testRunner(server.deps);
  const customerExport = await exportDone(server, {
    exported_object: 'customer',
    parameters: { fields: ['source_id', 'name', 'email', 'phone', 'address_line_1'] },
  });
  const redemptionExport = await exportDone(server, {
    exported_object: 'redemption',
    parameters: { fields: ['id', 'customer_id', 'customer_source_id', 'customer_name'] },
  });
  const orderExport = await exportDone(server, {
    exported_object: 'order',
    parameters: { fields: ['id', 'customer_id', 'amount'] },
  });
  const accepted = await server.request('POST', '/v1/customers/bulk/async', {
    body: [
      { source_id: ZED.source_id, email: 'not-an-email' },
      { source_id: 'other-bad', email: 'nope' },
    ],
  });
  const bulk = await waitForJob(server, accepted.body.async_action_id);
  await runner.stop();
  const staged = await server.request('POST', '/v1/orders/import', {
    body: [
      {
        source_id: 'late-zed',
        customer: { source_id: ZED.source_id, email: ZED.email, phone: ZED.phone },
        amount: 500,
      },
      { source_id: 'late-amy', customer: { source_id: 'amy' }, amount: 700 },
    ],
  });
  assert.equal(staged.status, 200, staged.text);
  return { customerExport, redemptionExport, orderExport, bulk, importJob: staged.body.async_action_id };
}

const failuresReport = async (server: TestServer, id: string): Promise<unknown[]> =>
  (await server.request('GET', `/v1/async-actions/${id}/failures`)).text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

describe('POST /v1/customers/{id}/permanent-deletion', () => {
  let server: TestServer;
  let zed: { id: string };
  let redemptionId: string;
  let jobs: JobData;
  before(async () => {
    server = await startTestServer({ clock: fixedClock(NOW) });
    const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const res = await server.request(method, path, { body, headers });
      assert.ok(res.status < 300, `${path}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    zed = await call('POST', '/v1/customers', { ...ZED, email: OLD_EMAIL }, { 'Idempotency-Key': 'zed-create' });
    await call('PUT', `/v1/customers/${zed.id}`, { email: ZED.email });
    await call('POST', '/v1/customers', { source_id: 'amy', name: 'Amy', email: 'amy@example.org' });
    await call('POST', '/v1/campaigns', {
      name: 'Gifts',
      campaign_type: 'GIFT_VOUCHERS',
      type: 'AUTO_UPDATE',
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000 } },
    });
    const gift = await call('POST', '/v1/publications', {
      campaign: 'Gifts',
      customer: { source_id: ZED.source_id },
      source_id: 'pub-zed',
    });
    await call('POST', '/v1/loyalties', { name: 'Stars', voucher: { loyalty_card: { points: 10 } } });
    await call('POST', '/v1/loyalties/Stars/members', { customer: { source_id: ZED.source_id } });
    // A membership, whose row carries the customer's source_id: it goes with the customer.
    await call('POST', '/v1/segments', { name: 'Chosen', type: 'static', customers: [ZED.source_id, 'amy'] });
    await call('POST', '/v1/orders', {
      source_id: 'zed-order',
      status: 'PAID',
      customer: { source_id: ZED.source_id },
      amount: 3000,
    });
    const redeemed = await call('POST', '/v1/redemptions', {
      redeemables: [{ object: 'voucher', id: gift.voucher.code, gift: { credits: 1000 } }],
      customer: { source_id: ZED.source_id },
      order: { amount: 2000, customer: { source_id: ZED.source_id } },
    });
    redemptionId = redeemed.redemptions[0].id;
    await call('POST', '/v1/orders', {
      source_id: 'amy-order',
      customer: { source_id: 'amy' },
      referrer: { id: zed.id },
      amount: 100,
    });
    jobs = await jobData(server);
  });
  after(() => server.close());

  it('refuses an unknown customer and changes nothing', async () => {
    await assertRefused(
      server,
      () => server.request('POST', '/v1/customers/nobody/permanent-deletion'),
      expectError(notFoundError('customer', 'nobody')),
    );
  });

  it("removes the customer's personal data from the database (SQLite: its file and WAL), keeping every figure and count", async () => {
    for (const text of PERSONAL) assert.ok(databaseHolds(server, text), `the setup stored ${text}`);
    const customerCsv = join(server.deps.exportsDir, `${jobs.customerExport}.csv`);
    for (const text of [ZED.source_id, ZED.name, ZED.email, ZED.phone, ZED.address.line_1])
      assert.ok(fileHas(customerCsv, text), `the customer export holds ${text}`);
    assert.ok(
      fileHas(join(server.deps.exportsDir, `${jobs.redemptionExport}.csv`), ZED.name),
      'the redemption export holds their name',
    );
    assert.deepEqual(
      exportFiles(server),
      [jobs.customerExport, jobs.redemptionExport, jobs.orderExport].map((id) => `${id}.csv`).sort(),
    );
    const kept = figures(server);
    const res = await server.request('POST', `/v1/customers/${ZED.source_id}/permanent-deletion`);
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^del_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, {
      id: res.body.id,
      created_at: NOW,
      related_object_id: zed.id,
      related_object: 'customer',
      status: 'DONE',
      data_json: {
        events: 0,
        customer_events: 8,
        daily_events: 0,
        segments: 1,
        orders: 3,
        order_events: 3,
        customer: 1,
      },
      object: 'pernament_deletion',
    });
    assertMatchesReference('POST', '/v1/customers/{customerId}/permanent-deletion', 200, res.body);
    assert.deepEqual(figures(server), kept);

    if (!onPostgres()) sqliteOf(server.deps).pragma('wal_checkpoint(PASSIVE)');
    for (const text of PERSONAL) assert.equal(databaseHolds(server, text), false, `the database still holds ${text}`);
    assert.equal(databaseHolds(server, 'amy@example.org'), true, 'other customers stay');
    assert.deepEqual(
      exportFiles(server),
      [`${jobs.orderExport}.csv`],
      'the exports that held the customer went with their files; the one of orders (ids only) stays',
    );
    for (const file of exportFiles(server))
      for (const text of PERSONAL)
        assert.equal(fileHas(join(server.deps.exportsDir, file), text), false, `${file} holds ${text}`);
  });

  it('deletes the exports that held the customer, scrubs their failure reports and erases their staged import items', async () => {
    for (const id of [jobs.customerExport, jobs.redemptionExport])
      assert.deepEqual((await server.request('GET', `/v1/exports/${id}`)).status, 404);
    assert.deepEqual((await server.request('GET', `/v1/exports/${jobs.orderExport}`)).body.status, 'DONE');
    assert.deepEqual(await failuresReport(server, jobs.bulk.id), [
      { reason: ERASED_FAILURE_REASON },
      { source_id: 'other-bad', reason: 'email must be a valid e-mail address' },
    ]);
    const [zedError, otherError] = jobs.bulk.result.errors as unknown[];
    assert.deepEqual(
      zedError,
      {
        message: 'Invalid payload',
        details: 'email must be a valid e-mail address',
        key: 'invalid_payload',
        source_id: ZED.source_id,
      },
      'the setup reported Zed',
    );
    const bulk = await waitForJob(server, jobs.bulk.id);
    assert.deepEqual(bulk, {
      ...jobs.bulk,
      result: {
        ...jobs.bulk.result,
        errors: [{ message: ERASED, details: ERASED, key: ERASED, source_id: ERASED }, otherError],
      },
    });

    const staged = (await server.request('GET', `/v1/async-actions/${jobs.importJob}`)).body;
    assert.deepEqual([staged.status, staged.progress], ['IN_PROGRESS', 0]);
    const runner = testRunner(server.deps);
    const imported = await waitForJob(server, jobs.importJob);
    await runner.stop();
    assert.deepEqual(
      [imported.status, imported.result],
      [
        'DONE',
        {
          message: '1 order(s) imported successfully, 1 failed.',
          failed: [{ reason: ERASED_ITEM_REASON }],
          done_count: 1,
          failed_count: 1,
          reports: [`/v1/async-actions/${jobs.importJob}/failures`],
        },
      ],
    );
    assert.equal(
      (await server.request('GET', `/v1/customers/${ZED.source_id}`)).status,
      404,
      'the erased item did not write the customer again',
    );
    assert.equal((await server.request('GET', '/v1/orders/late-zed')).status, 404);
    assert.equal((await server.request('GET', '/v1/orders/late-amy')).body.amount, 700);
  });

  it('leaves history that shows the customer by id only', async () => {
    assert.equal((await server.request('GET', `/v1/customers/${zed.id}`)).status, 404);
    assert.deepEqual((await server.request('GET', `/v1/customers/${zed.id}/activity`)).status, 404);
    const redemption = (await server.request('GET', `/v1/redemptions/${redemptionId}`)).body;
    assert.deepEqual(
      [redemption.customer, redemption.tracking_id, redemption.customer_id],
      [{ id: zed.id, object: 'customer' }, null, zed.id],
    );
    const publications = (await server.request('GET', `/v1/publications?customer=${zed.id}`)).body;
    assert.equal(publications.total, 2);
    for (const p of publications.publications)
      assert.deepEqual([p.customer, 'tracking_id' in p], [{ id: zed.id, object: 'customer' }, false]);
    const order = (await server.request('GET', '/v1/orders/zed-order')).body;
    assert.deepEqual([order.customer_id, order.amount, order.status], [null, 3000, 'PAID']);
    const retried = await server.request('POST', '/v1/customers', {
      body: { ...ZED, email: OLD_EMAIL },
      headers: { 'Idempotency-Key': 'zed-create' },
    });
    assert.notEqual(retried.body.id, zed.id, 'the stored answer was forgotten: the retry made a new customer');
  });

  it('deletes through @voucherify/sdk', async () => {
    const amy = (await server.request('GET', '/v1/customers/amy')).body;
    const answer = await serverSideClient(server).customers.deletePermanently(amy.id);
    assert.deepEqual([answer.related_object_id, answer.status, answer.object], [amy.id, 'DONE', 'pernament_deletion']);
    assert.equal((await server.request('GET', '/v1/customers/amy')).status, 404);
    assert.deepEqual(server.logged, []);
  });
});
