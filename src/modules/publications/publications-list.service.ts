import type { Deps } from '../../app/deps.js';
import { listEnvelope } from '../../lib/pagination.js';
import { findSimpleCustomer, findSimpleCustomers } from '../customers/index.js';
import * as listRepo from './publications-list.repository.js';
import type { PublicationsListQuery } from './publications-list.schemas.js';
import { presentPublication } from './publications.presenter.js';

/**
 * GET /v1/publications: newest first unless `order` says otherwise, `limit` 1..100, `page`
 * 1..100, `total` the exact number matching. `customer` is an id or a source_id; one that
 * names no customer now is kept as an id (a deleted customer's publications stay history).
 * The page's customers are read in one query.
 */
export async function listPublications(deps: Pick<Deps, 'db'>, query: PublicationsListQuery) {
  const equal = { ...query.equal };
  if (query.customer !== undefined)
    equal.customer_id = (await findSimpleCustomer(deps.db, query.customer))?.id ?? query.customer;
  const rows = await listRepo.listPublicationPage(deps.db, {
    equal,
    sort: query.order,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  const customers = await findSimpleCustomers(
    deps.db,
    rows.map((r) => r.customer_id),
  );
  const total = await listRepo.countPublications(deps.db, equal);
  return listEnvelope(
    'publications',
    rows.map((row) => presentPublication(row, customers.get(row.customer_id))),
    { total },
  );
}
