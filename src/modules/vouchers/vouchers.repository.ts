import { sql, type Kysely, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
import { notIndexed } from '../../db/sqlite/plan-hints.js';
import type { Database } from '../../db/database.js';
import type { BulkStatement, DatabaseEngine } from '../../db/engine.js';
import { keysTemplate, queryTemplate } from '../../db/sqlite/query-template.js';
import type { OrderBy } from '../../lib/pagination.js';
import { KIND_COLUMNS } from './kinds/index.js';
import type { VoucherInsertRow } from './voucher-draft.js';
import type { VoucherTable } from './vouchers.table.js';
import type { Db } from '../../db/engine.js';

export type VoucherRow = Selectable<VoucherTable> & { campaign_name: string | null };
export type VoucherPatch = Updateable<VoucherTable>;

/** Every insertable column, in the order the bulk statement binds them; each voucher kind names its own (kinds/). */
const COLUMNS: ReadonlyArray<keyof VoucherInsertRow> = [
  'id',
  'code',
  'campaign_id',
  'category_id',
  'type',
  ...KIND_COLUMNS,
  'start_date',
  'expiration_date',
  'validity_timeframe',
  'validity_day_of_week',
  'validity_hours',
  'active',
  'additional_info',
  'metadata',
  'is_referral_code',
  'holder_id',
  'referrer_id',
  'redemption_quantity',
  'redeemed_quantity',
  'redeemed_points',
  'publish_count',
  'created_at',
  'updated_at',
];

/** Column defaults of sql/0004_campaigns.sql: the bulk writer leaves these to the database. */
const COLUMN_DEFAULTS: Partial<Record<keyof VoucherInsertRow, unknown>> = {
  active: 1,
  metadata: '{}',
  is_referral_code: 0,
  redeemed_quantity: 0,
  redeemed_points: 0,
  publish_count: 0,
};

const statements = new WeakMap<DatabaseEngine, Map<string, BulkStatement>>();

/** The INSERT ... ON CONFLICT (code) DO NOTHING for these columns, built by Kysely, prepared once per connection. */
function insertStatement(
  db: Db,
  engine: DatabaseEngine,
  columns: ReadonlyArray<keyof VoucherInsertRow>,
): BulkStatement {
  let byColumns = statements.get(engine);
  if (!byColumns) statements.set(engine, (byColumns = new Map()));
  const key = columns.join(',');
  let statement = byColumns.get(key);
  if (!statement) {
    const sample = Object.fromEntries(columns.map((c) => [c, null])) as unknown as VoucherInsertRow;
    statement = engine.prepareBulk(
      db
        .insertInto('vouchers')
        .values(sample)
        .onConflict((oc) => oc.column('code').doNothing())
        .compile(),
    );
    byColumns.set(key, statement);
  }
  return statement;
}

export interface VoucherInserter {
  /** Inserts one row; false when its code is taken. */
  insert(row: VoucherInsertRow): boolean;
  /** A writer for many rows that share everything but id and code (one reused parameter array). */
  forDraft(draft: Omit<VoucherInsertRow, 'id' | 'code'>): (id: string, code: string) => boolean;
}

/**
 * Bulk insert for generation and import, run as prepared statements on the caller's
 * connection (inside its transaction): going through Kysely for each of a million rows would
 * cost more than the insert itself, so Kysely builds the SQL once. The bulk writer binds only
 * the draft's columns that differ from the table's defaults: binding costs per parameter.
 */
export function voucherInserter(db: Db, engine: DatabaseEngine): VoucherInserter {
  return {
    insert: (row) => insertStatement(db, engine, COLUMNS).run(COLUMNS.map((c) => row[c])) === 1,
    forDraft(draft) {
      const shared = COLUMNS.filter(
        (c) =>
          c !== 'id' && c !== 'code' && draft[c] !== null && draft[c] !== undefined && draft[c] !== COLUMN_DEFAULTS[c],
      );
      const columns: Array<keyof VoucherInsertRow> = ['id', 'code', ...shared];
      const statement = insertStatement(db, engine, columns);
      const params: unknown[] = [null, null, ...shared.map((c) => draft[c as keyof typeof draft])];
      return (id, code) => {
        params[0] = id;
        params[1] = code;
        return statement.run(params) === 1;
      };
    },
  };
}

/** One voucher; false when the code is taken. */
export async function insertVoucher(db: Db, row: VoucherInsertRow): Promise<boolean> {
  const result = await db
    .insertInto('vouchers')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n;
}

const withCampaign = (db: Db) =>
  db
    .selectFrom('vouchers as v')
    .leftJoin('campaigns as c', 'c.id', 'v.campaign_id')
    .selectAll('v')
    .select('c.name as campaign_name')
    .where((eb) => eb.or([eb('v.campaign_id', 'is', null), eb('c.deleted_at', 'is', null)]));

// Every voucher read, validation and redemption finds its vouchers: compiled once (docs/performance.md "Hot paths").
const byCode = queryTemplate<{ code: string }, VoucherRow>((db, param) =>
  withCampaign(db).where('v.code', '=', param('code')),
);
const byId = queryTemplate<{ id: string }, VoucherRow>((db, param) => withCampaign(db).where('v.id', '=', param('id')));

/** A voucher whose campaign is live (vouchers of a campaign being deleted are gone already). */
export const findVoucherByCode = async (db: Db, code: string): Promise<VoucherRow | undefined> =>
  (await byCode(db, { code }))[0];

/** The live vouchers of these codes (those that exist), in no particular order: a request's redeemables in one read. */
export const findVouchersByCodes = keysTemplate<string, VoucherRow>((db, codes) =>
  withCampaign(db).where('v.code', 'in', codes),
);

/** A voucher (of a live campaign, or standalone) by its id. */
export const findVoucherById = async (db: Db, id: string): Promise<VoucherRow | undefined> =>
  (await byId(db, { id }))[0];

export interface VoucherFilter {
  campaignId?: string;
  categoryId?: string;
  holderId?: string;
  createdBefore?: string;
  createdAfter?: string;
  updatedBefore?: string;
  updatedAfter?: string;
}

export type VoucherOrderField = 'created_at' | 'updated_at' | 'code';

type VoucherQuery<O> = SelectQueryBuilder<Database, 'vouchers', O>;

/**
 * The filters as WHERE terms, chosen so that one index serves the page (sql/0004, 0005,
 * 0010, 0014): the holder's (holder_id, order) when a customer is given, else the category's
 * (category_id, created_at: the service refuses other orders with a category) or the
 * campaign's (campaign_id, order), else the order's own. The other terms are checked on
 * the way (`notIndexed`), as is a date range on another field than the order's; a customer's
 * vouchers are few, so checking a campaign or category on them costs little. Without an
 * order (the count), every term may use its index.
 */
export function applyFilters<O>(
  query: VoucherQuery<O>,
  f: VoucherFilter,
  deleted: string[],
  order?: VoucherOrderField,
): VoucherQuery<O> {
  const byHolder = f.holderId !== undefined;
  const term = (column: 'campaign_id' | 'category_id', secondary: boolean) =>
    secondary && order !== undefined ? notIndexed(column) : column;
  const dateTerm = (field: 'created_at' | 'updated_at') =>
    order === undefined || order === field ? field : notIndexed(field);
  let q = query;
  if (f.holderId !== undefined) q = q.where('holder_id', '=', f.holderId);
  if (f.categoryId !== undefined) q = q.where(term('category_id', byHolder), '=', f.categoryId);
  if (f.campaignId !== undefined)
    q = q.where(term('campaign_id', byHolder || f.categoryId !== undefined), '=', f.campaignId);
  else if (deleted.length > 0)
    q = q.where((eb) => eb.or([eb('campaign_id', 'is', null), eb('campaign_id', 'not in', deleted)]));
  if (f.createdBefore !== undefined) q = q.where(dateTerm('created_at'), '<', f.createdBefore);
  if (f.createdAfter !== undefined) q = q.where(dateTerm('created_at'), '>', f.createdAfter);
  if (f.updatedBefore !== undefined) q = q.where(dateTerm('updated_at'), '<', f.updatedBefore);
  if (f.updatedAfter !== undefined) q = q.where(dateTerm('updated_at'), '>', f.updatedAfter);
  return q;
}

/** Campaigns being deleted: their vouchers (removed by a job, portion by portion) are no longer listed. */
export const deletedCampaignIds = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('campaigns').select('id').where('deleted_at', 'is not', null).execute()).map((c) => c.id);

/**
 * One page of vouchers: a walk of one index alone (see applyFilters), so a deep page costs its
 * offset in index entries. No join per row: campaign names come for the page's rows only, and
 * vouchers of campaigns being deleted are excluded by id (a row read per entry only while such
 * a campaign exists, and only in lists across campaigns).
 */
export async function listVouchers(
  db: Db,
  filter: VoucherFilter,
  page: { limit: number; offset: number; order: OrderBy<VoucherOrderField> },
): Promise<VoucherRow[]> {
  const deleted = await deletedCampaignIds(db);
  if (filter.campaignId !== undefined && deleted.includes(filter.campaignId)) return [];
  const rows = await applyFilters(db.selectFrom('vouchers').selectAll(), filter, deleted, page.order.field)
    .orderBy(page.order.field, page.order.direction)
    .orderBy('seq', page.order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return withCampaignNames(db, rows);
}

/** A page's rows with their campaigns' names, read for the page's campaigns only. */
export async function withCampaignNames(db: Db, rows: Array<Selectable<VoucherTable>>): Promise<VoucherRow[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.campaign_id === null ? [] : [r.campaign_id])))];
  const found =
    ids.length === 0 ? [] : await db.selectFrom('campaigns').select(['id', 'name']).where('id', 'in', ids).execute();
  const names = new Map(found.map((c) => [c.id, c.name]));
  return rows.map((row) => ({
    ...row,
    campaign_name: row.campaign_id === null ? null : (names.get(row.campaign_id) ?? null),
  }));
}

/** How many listed vouchers match the filters, counted on the narrowest filter's index. */
export async function countVouchers(db: Db, filter: VoucherFilter): Promise<number> {
  const deleted = await deletedCampaignIds(db);
  if (filter.campaignId !== undefined && deleted.includes(filter.campaignId)) return 0;
  const query = applyFilters(
    db.selectFrom('vouchers').select((eb) => eb.fn.countAll<number>().as('n')),
    filter,
    deleted,
  );
  return (await query.executeTakeFirstOrThrow()).n;
}

/** Vouchers that belong to no campaign (read from the campaign index's NULL range). */
export async function countStandaloneVouchers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Updates a voucher by id. A new redemption quantity below what was already redeemed is
 * refused by the guard (returns false), never written.
 */
export async function updateVoucher(db: Db, id: string, patch: VoucherPatch): Promise<boolean> {
  let query = db.updateTable('vouchers').set(patch).where('id', '=', id);
  const quantity = patch.redemption_quantity;
  if (typeof quantity === 'number') query = query.where('redeemed_quantity', '<=', quantity);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function deleteVoucher(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('vouchers').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows === 1n;
}

/** The highest seq ever used: an upper bound of the number of vouchers, read in O(1). */
export async function maxVoucherSeq(db: Db): Promise<number> {
  const row = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.max('seq').as('m'))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

/**
 * Codes matching an SQLite GLOB pattern. Kysely has no GLOB operator, hence the raw
 * fragment; a pattern with a fixed start is answered from the code index's range.
 */
export async function countCodesMatching(db: Db, glob: string): Promise<number> {
  const row = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql<boolean>`code GLOB ${glob}`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The seq of the campaign's `n`-th voucher with seq in (after, upTo], or null when it has
 * fewer: where a portion of a job over the campaign's vouchers ends. Read from
 * vouchers_campaign_seq alone (n index entries, no row).
 */
export async function findNthCampaignVoucherSeq(
  db: Db,
  campaignId: string,
  after: number,
  upTo: number,
  n: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('vouchers')
    .select('seq')
    .where('campaign_id', '=', campaignId)
    .where('seq', '>', after)
    .where('seq', '<=', upTo)
    .orderBy('seq')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
  return row?.seq ?? null;
}

/** Deletes the campaign's vouchers with seq in (from, to] (through vouchers_campaign_seq); returns how many. */
export async function deleteCampaignVouchersInRange(
  db: Db,
  campaignId: string,
  from: number,
  to: number,
): Promise<number> {
  const result = await db
    .deleteFrom('vouchers')
    .where('campaign_id', '=', campaignId)
    .where('seq', '>', from)
    .where('seq', '<=', to)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Updates the campaign's vouchers with seq in (from, to] (through vouchers_campaign_seq); returns how many. */
export async function updateCampaignVouchersInRange(
  db: Db,
  campaignId: string,
  from: number,
  to: number,
  patch: VoucherPatch,
): Promise<number> {
  const result = await db
    .updateTable('vouchers')
    .set(patch)
    .where('campaign_id', '=', campaignId)
    .where('seq', '>', from)
    .where('seq', '<=', to)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// Every redemption claims its vouchers: compiled once (docs/performance.md "Hot paths").
const claimOne = queryTemplate<{ id: string; at: string }, { id: string }>((db, param) =>
  db
    .updateTable('vouchers')
    .set((eb) => ({ redeemed_quantity: eb('redeemed_quantity', '+', 1), updated_at: param('at') }))
    .where('id', '=', param('id'))
    // Units held by live session locks (sql/0020) are not for others.
    .where((eb) =>
      eb.or([
        eb('redemption_quantity', 'is', null),
        eb(eb('redeemed_quantity', '+', eb.ref('reserved_quantity')), '<', eb.ref('redemption_quantity')),
      ]),
    )
    .returning('id'),
);

/**
 * One more redemption of a voucher, guarded by its redemption quantity: false when the
 * quantity is used up (a lost race), nothing changed then.
 */
export async function claimRedemption(db: Db, id: string, at: string): Promise<boolean> {
  return (await claimOne(db, { id, at })).length > 0;
}

/** One redemption fewer (a rollback), guarded so the count never goes below zero. */
export async function releaseRedemption(db: Db, id: string, at: string): Promise<boolean> {
  const row = await db
    .updateTable('vouchers')
    .set((eb) => ({ redeemed_quantity: eb('redeemed_quantity', '-', 1), updated_at: at }))
    .where('id', '=', id)
    .where('redeemed_quantity', '>', 0)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The oldest voucher of a campaign that a customer holds (on the holder's index), or undefined. */
export const findHeldVoucher = (db: Db, campaignId: string, holderId: string): Promise<VoucherRow | undefined> =>
  withCampaign(db)
    .where('v.holder_id', '=', holderId)
    .where('v.campaign_id', '=', campaignId)
    .orderBy('v.created_at')
    .limit(1)
    .executeTakeFirst();
