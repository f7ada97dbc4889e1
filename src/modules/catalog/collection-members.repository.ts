import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { CompiledFilter } from '../../engine/conditions/index.js';
import { filterSql } from './collection-filter.repository.js';
import { catalogSource } from './collection-sources.repository.js';
import type { MembersQuery } from './product-collections.schemas.js';

type Db = Kysely<Database>;

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
  /** Members in the whole collection; undefined when the page is empty (count them apart). */
  total?: number;
}

/** Which products and which SKUs are members: an AUTO_UPDATE filter or a STATIC list. */
export type Membership = { filter: CompiledFilter } | { collectionId: string };

function productArm(db: Db, membership: Membership, after?: { op: '>' | '<'; at: string }) {
  let query = db
    .selectFrom('products as p')
    .select([sql.lit<'product' | 'sku'>('product').as('object'), 'p.id', 'p.id as product_id', 'p.created_at', 'p.updated_at']);
  query =
    'filter' in membership
      ? query.where(filterSql(membership.filter, (field) => catalogSource('product', field)))
      : query.where('p.id', 'in', (eb) =>
          eb
            .selectFrom('product_collection_items as i')
            .select('i.product_id')
            .where('i.collection_id', '=', membership.collectionId)
            .where('i.object', '=', 'product'),
        );
  return after ? query.where('p.created_at', after.op, after.at) : query;
}

function skuArm(db: Db, membership: Membership, after?: { op: '>' | '<'; at: string }) {
  let query = db
    .selectFrom('skus as s')
    .select([sql.lit<'product' | 'sku'>('sku').as('object'), 's.id', 's.product_id', 's.created_at', 's.updated_at']);
  query =
    'filter' in membership
      ? query.where(filterSql(membership.filter, (field) => catalogSource('sku', field)))
      : query.where('s.id', 'in', (eb) =>
          eb
            .selectFrom('product_collection_items as i')
            .select('i.sku_id')
            .where('i.collection_id', '=', membership.collectionId)
            .where('i.object', '=', 'sku')
            .$narrowType<{ sku_id: string }>(),
        );
  return after ? query.where('s.created_at', after.op, after.at) : query;
}

const cursorOf = (q: MembersQuery) =>
  q.startingAfter === undefined ? undefined : { op: q.sort.direction === 'asc' ? ('>' as const) : ('<' as const), at: q.startingAfter };

/**
 * One page of members, products and SKUs together, in one statement. The total comes with
 * the page (a window count over every member before LIMIT), so the filter runs once.
 */
export async function pageOfMembers(db: Db, membership: Membership, q: MembersQuery): Promise<MemberPage> {
  const cursor = cursorOf(q);
  const members = productArm(db, membership, cursor).unionAll(skuArm(db, membership, cursor));
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

/** How many products and SKUs a collection holds now. */
export async function countMembers(db: Db, membership: Membership): Promise<number> {
  const members = productArm(db, membership).unionAll(skuArm(db, membership));
  const row = await db
    .selectFrom(members.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
