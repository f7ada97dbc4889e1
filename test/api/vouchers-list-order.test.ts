import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { VOUCHER_ORDER_FIELDS } from '../../src/modules/vouchers/vouchers.schemas.js';
import { discountCampaign } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';

const clock = fixedClock('2025-03-01T10:00:00.000Z');
const MINUTE = 60_000;

interface Listed {
  code: string;
  campaign: string | null;
  campaign_id: string | null;
  created_at: string;
  updated_at: string | null;
}

/**
 * GET /v1/vouchers reads a page by walking the order's index alone and names the campaigns of
 * the page's rows afterwards (vouchers.repository.ts). Every order, both directions and deep
 * pages must still answer what sorting every voucher would, ties in creation order, and
 * vouchers of a deleted campaign must be gone at once, before its job removes them.
 */
describe('GET /v1/vouchers in every order', () => {
  let server: TestServer;
  const list = async (query: string) => {
    const res = await server.request('GET', `/v1/vouchers?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { vouchers: Listed[]; total: number };
  };
  const created: Listed[] = [];

  before(async () => {
    server = await startTestServer({ clock });
    for (const name of ['Spring', 'Summer', 'Doomed']) {
      await server.request('POST', '/v1/campaigns', { body: discountCampaign(name) });
      for (let i = 0; i < 4; i++) {
        if (i % 2 === 0) clock.advance(MINUTE); // pairs share a creation time: ties in creation order
        created.push((await server.request('POST', `/v1/campaigns/${name}/vouchers`)).body as Listed);
      }
    }
    // Updates at later times, in another order than creation (updated_at NULL for the rest).
    for (const i of [5, 0, 9, 2]) {
      clock.advance(MINUTE);
      const voucher = created[i] as Listed;
      const res = await server.request('PUT', `/v1/vouchers/${voucher.code}`, { body: { metadata: { i } } });
      created[i] = { ...voucher, updated_at: res.body.updated_at };
    }
  });
  after(() => server.close());

  /** What sorting every given voucher would answer (ties: creation order; NULL first ascending). */
  function sorted(vouchers: Listed[], field: (typeof VOUCHER_ORDER_FIELDS)[number], descending: boolean): string[] {
    const key = (v: Listed) => v[field] ?? '';
    const ascending = vouchers
      .map((v, seq) => ({ v, seq }))
      .sort((a, b) => (key(a.v) < key(b.v) ? -1 : key(a.v) > key(b.v) ? 1 : a.seq - b.seq));
    return (descending ? ascending.reverse() : ascending).map(({ v }) => v.code);
  }

  it('answers each order, both directions, whole and in pages, within a campaign and across', async () => {
    const spring = created.slice(0, 4);
    for (const field of VOUCHER_ORDER_FIELDS) {
      for (const descending of [false, true]) {
        const order = `order=${descending ? '-' : ''}${field}`;
        const all = await list(`${order}&limit=100`);
        assert.deepEqual(
          all.vouchers.map((v) => v.code),
          sorted(created, field, descending),
          order,
        );
        assert.deepEqual(
          (await list(`${order}&limit=5&page=2`)).vouchers.map((v) => v.code),
          sorted(created, field, descending).slice(5, 10),
          order,
        );
        const inSpring = await list(`${order}&campaign=Spring&limit=3&page=2`);
        assert.deepEqual(
          [inSpring.vouchers.map((v) => v.code), inSpring.total],
          [sorted(spring, field, descending).slice(3), 4],
          order,
        );
      }
    }
    const named = (await list('limit=100')).vouchers.map((v) => [v.code, v.campaign] as const);
    assert.deepEqual(new Map(named), new Map(created.map((v) => [v.code, v.campaign])));
  });

  it('leaves out the vouchers of a deleted campaign at once, in every order', async () => {
    const doomed = created[8] as Listed;
    assert.equal((await server.request('DELETE', '/v1/campaigns/Doomed')).status, 202);
    const kept = created.filter((v) => v.campaign !== 'Doomed');
    for (const field of VOUCHER_ORDER_FIELDS) {
      const all = await list(`order=-${field}&limit=100`);
      assert.deepEqual([all.vouchers.map((v) => v.code), all.total], [sorted(kept, field, true), 8], field);
    }
    assert.deepEqual(await list(`campaign_id=${doomed.campaign_id}`), {
      object: 'list',
      data_ref: 'vouchers',
      vouchers: [],
      total: 0,
    });
  });
});
