import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Tx } from '../../src/db/engine.js';
import { internalActor } from '../../src/lib/actor.js';
import { mergeProductMetadata } from '../../src/modules/catalog/products/products.service.js';
import { mergeCustomerMetadata } from '../../src/modules/customers/customers.service.js';
import { mergeVoucherMetadata } from '../../src/modules/vouchers/vouchers.service.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOW = '2026-11-29T00:00:00.000Z';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two metadata merges of one row at once (the bulk and metadata jobs' items: read the row,
 * merge keys into its metadata, write it back), the first held open after its merge while the
 * second starts. On PostgreSQL (READ COMMITTED) the second would read the row before the
 * first commits and write back its stale merge, losing the first's key, unless the merge locks
 * the row before it reads (db/locks.ts lockedRow). On SQLite the one writer runs them one after
 * the other. Either way both keys land.
 */
describe('metadata merges of one row at once', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/products', { body: { source_id: 'merged-product', metadata: { kept: 1 } } });
    await server.request('POST', '/v1/customers', { body: { source_id: 'merged-customer', metadata: { kept: 1 } } });
    await server.request('POST', '/v1/vouchers/MERGED-1', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, metadata: { kept: 1 } },
    });
  });
  after(() => server.close());

  /** The first merge's transaction stays open 300 ms after its merge; the second starts meanwhile. */
  async function overlapping(merge: (trx: Tx, key: string) => Promise<void>): Promise<void> {
    let merged: () => void = () => {};
    const firstMerged = new Promise<void>((resolve) => (merged = resolve));
    const first = server.deps.db.transaction().execute(async (trx) => {
      await merge(trx, 'first');
      merged();
      await pause(300);
    });
    await firstMerged;
    const second = server.deps.db.transaction().execute((trx) => merge(trx, 'second'));
    await Promise.all([first, second]);
  }

  const metadataOf = async (path: string) => (await server.request('GET', path)).body.metadata;
  const both = { kept: 1, first: true, second: true };

  it('keeps both keys of a product', async () => {
    await overlapping((trx, key) => mergeProductMetadata(trx, 'merged-product', { [key]: true }, NOW));
    assert.deepEqual(await metadataOf('/v1/products/merged-product'), both);
  });

  it('keeps both keys of a customer', async () => {
    const ctx = { actor: internalActor(), at: NOW, seams: server.deps.seams };
    await overlapping((trx, key) => mergeCustomerMetadata(trx, ctx, 'merged-customer', { [key]: true }));
    assert.deepEqual(await metadataOf('/v1/customers/merged-customer'), both);
  });

  it('keeps both keys of a voucher', async () => {
    await overlapping((trx, key) => mergeVoucherMetadata(trx, 'MERGED-1', { [key]: true }, NOW));
    assert.deepEqual(await metadataOf('/v1/vouchers/MERGED-1'), both);
  });
});
