import { compileFilter, validateFilter, type Filter } from '../../../engine/conditions/index.js';
import { listEnvelope } from '../../../lib/pagination.js';
import { COLLECTION_FIELDS } from './collection-fields.rules.js';
import {
  countCollectionMembers,
  membersAmong,
  pageOfMembers,
  type MemberIds,
  type Membership,
  type MemberRef,
} from './collection-members.repository.js';
import { findCollectionById } from './product-collections.repository.js';
import { presentProductMember, presentSkuMember, type MemberView } from './product-collections.presenter.js';
import type { CollectionRow } from './product-collections.repository.js';
import { requireCollection } from './product-collections.service.js';
import type { MembersQuery } from './product-collections.schemas.js';
import * as products from '../products/products.repository.js';
import type { CatalogDeps } from '../products/products.service.js';
import * as skus from '../skus/skus.repository.js';

/** The stored filter, as the engine takes it (it was validated when the collection was made). */
function storedFilter(row: CollectionRow): Filter {
  const checked = validateFilter(JSON.parse(row.filter ?? '{}'), COLLECTION_FIELDS);
  if (!checked.ok) throw new Error(`Stored filter of ${row.id} no longer validates: ${checked.errors.join('; ')}`);
  return checked.filter;
}

/** Who belongs to a collection now: its filter evaluated at this moment, or its chosen members. */
export const membershipOf = (deps: CatalogDeps, row: CollectionRow): Membership =>
  row.type === 'AUTO_UPDATE'
    ? { filter: compileFilter(storedFilter(row), deps.clock.now()) }
    : { collectionId: row.id };

/** The full rows of a page of members (and the SKUs' products), in three queries. */
async function presentMembers(deps: CatalogDeps, refs: MemberRef[]): Promise<MemberView[]> {
  const skuIds = refs.filter((r) => r.object === 'sku').map((r) => r.id);
  const productIds = [...new Set(refs.map((r) => r.product_id))];
  const productRows = new Map((await products.findProductsByIds(deps.db, productIds)).map((row) => [row.id, row]));
  const skuRows = new Map((await skus.findSkusByIds(deps.db, skuIds)).map((row) => [row.id, row]));
  return refs.flatMap((ref) => {
    const product = productRows.get(ref.product_id);
    const sku = skuRows.get(ref.id);
    if (ref.object === 'product') return product ? [presentProductMember(product)] : [];
    return sku && product ? [presentSkuMember(sku, product)] : [];
  });
}

/**
 * GET /v1/product-collections/{id}/products: the products and SKUs in the collection now,
 * paged. An AUTO_UPDATE collection's filter runs in SQL at each request.
 */
export async function listCollectionProducts(deps: CatalogDeps, id: string, query: MembersQuery) {
  const row = await requireCollection(deps.db, id);
  const membership = membershipOf(deps, row);
  const page = await pageOfMembers(deps.db, membership, query);
  const total = page.total ?? (await countCollectionMembers(deps.db, membership));
  return listEnvelope('data', await presentMembers(deps, page.rows), { total });
}

/**
 * The ids among these products and SKUs that the collection holds now (an unknown collection
 * holds none): for earning rules that target a collection.
 */
export async function collectionMembersAmong(
  deps: CatalogDeps,
  collectionId: string,
  ids: MemberIds,
): Promise<Set<string>> {
  const row = await findCollectionById(deps.db, collectionId);
  return new Set(row ? await membersAmong(deps.db, membershipOf(deps, row), ids) : []);
}

/**
 * Which of these products and SKUs each collection holds now, by collection id (an unknown
 * collection holds none): for validation rules that name collections. Queries grow with the
 * collections named, not with the items.
 */
export async function collectionsMembersAmong(
  deps: CatalogDeps,
  collectionIds: readonly string[],
  ids: MemberIds,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const id of new Set(collectionIds)) out.set(id, await collectionMembersAmong(deps, id, ids));
  return out;
}
