import { sql } from 'kysely';
import { notIndexed } from '../../../db/sqlite/plan-hints.js';
import { queryTemplate } from '../../../db/query-template.js';
import type { CompiledFilter } from '../../../engine/conditions/index.js';
import { filterTermsOf } from './collection-filter-terms.repository.js';
import { filterSql } from './collection-filter.repository.js';
import { catalogSource } from './collection-sources.repository.js';
import type { MembersQuery } from './product-collections.schemas.js';
import type { Db } from '../../../db/engine.js';

/** A member of a collection: a product or a SKU, with what orders the page. */
export interface MemberRef {
  object: 'product' | 'sku';
  id: string;
  product_id: string;
  created_at: string;
  updated_at: string | null;
}

export interface MemberPage {
  rows: MemberRef[];
  /** Members in the whole collection, when the page's statement counted them (else count apart). */
  total?: number;
}

/** Which products and which SKUs are members: an AUTO_UPDATE filter or a STATIC list. */
export type Membership = { filter: CompiledFilter } | { collectionId: string };

type Cursor = { op: '>' | '<'; at: string };

function productArm(db: Db, filter: CompiledFilter, after?: Cursor) {
  const terms = filterTermsOf(db);
  const query = db
    .selectFrom('products as p')
    .select([
      sql.lit<'product' | 'sku'>('product').as('object'),
      'p.id',
      'p.id as product_id',
      'p.created_at',
      'p.updated_at',
    ])
    .where(filterSql(filter, (field) => catalogSource('product', field, terms), terms));
  return after ? query.where('p.created_at', after.op, after.at) : query;
}

function skuArm(db: Db, filter: CompiledFilter, after?: Cursor) {
  const terms = filterTermsOf(db);
  const query = db
    .selectFrom('skus as s')
    .select([sql.lit<'product' | 'sku'>('sku').as('object'), 's.id', 's.product_id', 's.created_at', 's.updated_at'])
    .where(filterSql(filter, (field) => catalogSource('sku', field, terms), terms));
  return after ? query.where('s.created_at', after.op, after.at) : query;
}

const cursorOf = (q: MembersQuery): Cursor | undefined =>
  q.startingAfter === undefined ? undefined : { op: q.sort.direction === 'asc' ? '>' : '<', at: q.startingAfter };

/**
 * A page of a STATIC collection: one walk of its items in the order asked, on the member sort
 * keys each item carries (product_collection_items_created_at / _updated_at, sql/0005). With
 * the updated_at order, the starting_after date is checked on the index entries of that walk.
 */
function staticPage(db: Db, collectionId: string, q: MembersQuery): Promise<MemberRef[]> {
  const cursor = cursorOf(q);
  const createdAt = q.sort.field === 'updated_at' ? notIndexed('member_created_at') : 'member_created_at';
  let query = db
    .selectFrom('product_collection_items')
    .select([
      'object',
      'member_id as id',
      'product_id',
      'member_created_at as created_at',
      'member_updated_at as updated_at',
    ])
    .where('collection_id', '=', collectionId);
  if (cursor) query = query.where(createdAt, cursor.op, cursor.at);
  if (q.sort.field === 'updated_at') query = query.orderBy('member_updated_at', q.sort.direction);
  return query
    .orderBy('member_created_at', q.sort.direction)
    .orderBy('member_id', q.sort.direction)
    .limit(q.limit)
    .offset(q.offset)
    .$narrowType<{ created_at: string }>()
    .execute();
}

/**
 * One page of members, products and SKUs together. A STATIC collection's page is a walk of
 * its items (counted apart, from the same items). An AUTO_UPDATE filter's page comes with its
 * total (a window count over every match before LIMIT), so the filter runs once; the matches
 * are sorted, as the total reads each of them anyway (see the Catalog notes of docs/deviations.md).
 */
export async function pageOfMembers(db: Db, membership: Membership, q: MembersQuery): Promise<MemberPage> {
  if ('collectionId' in membership) return { rows: await staticPage(db, membership.collectionId, q) };
  const cursor = cursorOf(q);
  const members = productArm(db, membership.filter, cursor).unionAll(skuArm(db, membership.filter, cursor));
  const rows = await db
    .selectFrom(members.as('m'))
    .selectAll()
    .select(sql<number>`count(*) OVER ()`.as('total'))
    .orderBy(q.sort.field, q.sort.direction)
    .$if(q.sort.field === 'updated_at', (qb) => qb.orderBy('created_at', q.sort.direction))
    .orderBy('id', q.sort.direction)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = rows[0]?.total;
  return { rows: rows.map(({ total: _, ...ref }) => ref), total: cursor ? undefined : total };
}

/** How many products and SKUs a collection holds now (a STATIC one: its items). */
export async function countCollectionMembers(db: Db, membership: Membership): Promise<number> {
  if ('collectionId' in membership) {
    const row = await db
      .selectFrom('product_collection_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('collection_id', '=', membership.collectionId)
      .executeTakeFirstOrThrow();
    return row.n;
  }
  const members = productArm(db, membership.filter).unionAll(skuArm(db, membership.filter));
  const row = await db
    .selectFrom(members.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A STATIC collection's items, for membership tests (each checkout a rule on it applies to). */
const staticItems = queryTemplate<
  { collectionId: string },
  { object: 'product' | 'sku'; product_id: string; sku_id: string | null }
>((db, param) =>
  db
    .selectFrom('product_collection_items')
    .select(['object', 'product_id', 'sku_id'])
    .where('collection_id', '=', param('collectionId')),
);

/** Product and SKU ids to test for membership (an order's items: at most a few hundred). */
export interface MemberIds {
  productIds: string[];
  skuIds: string[];
}

/**
 * Which of these products and SKUs are members now: a STATIC collection's items (read on its
 * key), or an AUTO_UPDATE filter run over just these rows (by id). For loyalty's earning
 * rules that target a collection.
 */
export async function membersAmong(db: Db, membership: Membership, ids: MemberIds): Promise<string[]> {
  if ('collectionId' in membership) {
    const rows = await staticItems(db, { collectionId: membership.collectionId });
    return rows.flatMap((row) =>
      row.object === 'sku'
        ? row.sku_id && ids.skuIds.includes(row.sku_id)
          ? [row.sku_id]
          : []
        : ids.productIds.includes(row.product_id)
          ? [row.product_id]
          : [],
    );
  }
  const products =
    ids.productIds.length === 0
      ? []
      : await productArm(db, membership.filter).where('p.id', 'in', ids.productIds).execute();
  const skus =
    ids.skuIds.length === 0 ? [] : await skuArm(db, membership.filter).where('s.id', 'in', ids.skuIds).execute();
  return [...products, ...skus].map((row) => row.id);
}
