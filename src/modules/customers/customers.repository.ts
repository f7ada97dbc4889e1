import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { columnsShape, keysTemplate, listShape, queryTemplate } from '../../db/query-template.js';
import type { CustomerLoyaltyCampaignTable, CustomerReferralTable, CustomerTable } from './customers.table.js';
import type { Db } from '../../db/engine.js';

export type CustomerRow = Selectable<CustomerTable>;
export type NewCustomerRow = Insertable<CustomerTable>;
export type CustomerPatch = Updateable<CustomerTable>;
export type LoyaltyCampaignRow = Selectable<CustomerLoyaltyCampaignTable>;
export type ReferralRow = Selectable<CustomerReferralTable>;

// A customer read, and every redemption with a customer: compiled once (docs/performance.md "Hot paths").
const byId = queryTemplate<{ id: string }, CustomerRow>((db, param) =>
  db.selectFrom('customers').selectAll().where('id', '=', param('id')),
);

export const findCustomerById = async (db: Db, id: string): Promise<CustomerRow | undefined> =>
  (await byId(db, { id }))[0];

export const findCustomersByIds = (db: Db, ids: string[]): Promise<CustomerRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('customers').selectAll().where('id', 'in', ids).execute();

// Every order of an import looks up (and may create) its customer: query templates
// (db/sqlite/query-template.ts), built once by Kysely rather than once per order.
const bySourceId = queryTemplate<{ source_id: string }, CustomerRow>((db, param) =>
  db.selectFrom('customers').selectAll().where('source_id', '=', param('source_id')),
);

export const findCustomerBySourceId = async (db: Db, sourceId: string): Promise<CustomerRow | undefined> =>
  (await bySourceId(db, { source_id: sourceId }))[0];

/** The customers with these source ids (an import portion's, in one statement per batch). */
export const findCustomersBySourceIds = keysTemplate<string, CustomerRow>((db, sourceIds) =>
  db.selectFrom('customers').selectAll().where('source_id', 'in', sourceIds),
);

/** A path's customer reference: an id first, then a source id. */
export const findCustomerByRef = async (db: Db, ref: string): Promise<CustomerRow | undefined> =>
  (await findCustomerById(db, ref)) ?? (await findCustomerBySourceId(db, ref));

const insertRow = queryTemplate<NewCustomerRow & Record<string, unknown>, CustomerRow>((db, param, columns) =>
  db
    .insertInto('customers')
    .values(Object.fromEntries(columns.split(',').map((column) => [column, param(column)])) as NewCustomerRow)
    .returningAll(),
);

export const insertCustomer = async (db: Db, row: NewCustomerRow): Promise<CustomerRow> =>
  (await insertRow(db, row, columnsShape(row)))[0] as CustomerRow;

const insertOnly = queryTemplate<NewCustomerRow & Record<string, unknown>, never>((db, param, columns) =>
  db
    .insertInto('customers')
    .values(Object.fromEntries(columns.split(',').map((column) => [column, param(column)])) as NewCustomerRow),
);

/** insertCustomer for a caller that reads nothing back (an import's new customer): RETURNING * cost ~8 us of its ~20. */
export const insertCustomerOnly = async (db: Db, row: NewCustomerRow): Promise<void> => {
  await insertOnly(db, row, columnsShape(row));
};

export const updateCustomer = (db: Db, id: string, patch: CustomerPatch): Promise<CustomerRow | undefined> =>
  db.updateTable('customers').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteCustomer = async (db: Db, id: string): Promise<boolean> => {
  const result = await db.deleteFrom('customers').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
};

// A customer's relations, for every customer presented: compiled once per list length.
const loyaltyCampaigns = queryTemplate<{ ids: readonly string[] }, LoyaltyCampaignRow>((db, param, shape) =>
  db
    .selectFrom('customer_loyalty_campaigns')
    .selectAll()
    .where('customer_id', 'in', param.list('ids', Number(shape)))
    .orderBy('customer_id')
    .orderBy('campaign_name'),
);
const referrals = queryTemplate<{ ids: readonly string[] }, ReferralRow>((db, param, shape) =>
  db
    .selectFrom('customer_referrals')
    .selectAll()
    .where('customer_id', 'in', param.list('ids', Number(shape)))
    .orderBy('seq'),
);

/** loyalty.campaigns of several customers in one query (no N+1 on lists). */
export const listLoyaltyCampaigns = (db: Db, customerIds: string[]): Promise<LoyaltyCampaignRow[]> =>
  customerIds.length === 0 ? Promise.resolve([]) : loyaltyCampaigns(db, { ids: customerIds }, listShape(customerIds));

/** referrals.campaigns of several customers in one query, oldest first. */
export const listReferrals = (db: Db, customerIds: string[]): Promise<ReferralRow[]> =>
  customerIds.length === 0 ? Promise.resolve([]) : referrals(db, { ids: customerIds }, listShape(customerIds));
