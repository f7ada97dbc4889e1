import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { runCli } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('promo loyalty members', () => {
  let server: TestServer;
  const clock = fixedClock('2025-05-01T08:00:00.000Z');
  let holder: string;
  before(async () => {
    server = await startTestServer({ clock });
    await server.request('POST', '/v1/loyalties', {
      body: { name: 'Cli stars', voucher: { loyalty_card: { points: 40 } } },
    });
    await server.request('POST', '/v1/campaigns/Cli stars/vouchers', { body: { code: 'FREE-CARD' } });
    clock.advance(60_000);
    holder = (
      await server.request('POST', '/v1/loyalties/Cli stars/members', {
        body: { voucher: 'FREE-CARD', customer: { source_id: 'cli-ann' } },
      })
    ).body.holder_id;
    await server.request('POST', '/v1/campaigns/Cli stars/vouchers', { body: { code: 'NEW-CARD' } });
  });
  after(() => server.close());

  it('prints the newest members as a table: code, customer, points, balance, created', async () => {
    const res = await runCli(['loyalty', 'members', 'Cli stars', '--db', server.dbFile]);
    const pad = ' '.repeat(holder.length - 'CUSTOMER'.length);
    const expected = [
      `CODE       CUSTOMER${pad}  POINTS  BALANCE  CREATED`,
      `NEW-CARD   -${' '.repeat(holder.length - 1)}  40      40       2025-05-01T08:01:00.000Z`,
      `FREE-CARD  ${holder}  40      40       2025-05-01T08:00:00.000Z`,
      '2 of 2 member(s)',
      '',
    ].join('\n');
    assert.deepEqual(res, { code: 0, stdout: expected, stderr: '' });
    const one = await runCli(['loyalty', 'members', 'Cli stars', '--limit', '1', '--db', server.dbFile]);
    // The header (CUSTOMER) sets the column's width when no holder id is listed.
    assert.deepEqual(
      [one.code, one.stdout.split('\n').slice(1)],
      [0, ['NEW-CARD  -         40      40       2025-05-01T08:01:00.000Z', '1 of 2 member(s)', '']],
    );
  });

  it('prints the API answer with --json', async () => {
    const res = await runCli(['loyalty', 'members', 'Cli stars', '--json', '--db', server.dbFile]);
    assert.equal(res.code, 0);
    assert.deepEqual(
      JSON.parse(res.stdout),
      (await server.request('GET', '/v1/loyalties/Cli stars/members?limit=20')).body,
    );
  });

  it('exits 1 with the error body for an unknown program, 2 for a bad --limit', async () => {
    const unknown = await runCli(['loyalty', 'members', 'Nope', '--db', server.dbFile]);
    assert.deepEqual(
      [unknown.code, unknown.stdout, JSON.parse(unknown.stderr)],
      [
        1,
        '',
        {
          code: 404,
          key: 'not_found',
          message: 'Resource not found',
          details: 'Cannot find campaign with id Nope',
          resource_id: 'Nope',
          resource_type: 'campaign',
        },
      ],
    );
    const bad = await runCli(['loyalty', 'members', 'Cli stars', '--limit', '0', '--db', server.dbFile]);
    assert.deepEqual(bad, { code: 2, stdout: '', stderr: 'error: --limit must be an integer from 1 to 100\n' });
  });
});
