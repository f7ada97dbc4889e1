import type { Tx } from '../../../db/engine.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Actor } from '../../../lib/actor.js';
import type { Seams } from '../../../lib/seams.js';
import { type findSimpleCustomer, previewSimpleCustomer, upsertSimpleCustomer } from '../../customers/index.js';
import type { StackableBody } from './redemptions.schemas.js';

export type Customer = NonNullable<Awaited<ReturnType<typeof findSimpleCustomer>>>;

/** The request's customer, upserted by id or source_id with the fields sent (null when none is sent). */
export async function customerOf(
  trx: Tx,
  ctx: { actor: Actor; at: string; seams?: Seams },
  body: StackableBody,
): Promise<Customer | null> {
  return body.customer
    ? upsertSimpleCustomer(trx, { actor: ctx.actor, at: ctx.at, seams: ctx.seams }, body.customer)
    : null;
}

/** The request's customer as customerOf would leave it, from reads alone: a validation writes none. */
export async function previewedCustomerOf(
  db: Kysely<Database>,
  ctx: { actor: Actor; at: string },
  body: StackableBody,
): Promise<Customer | null> {
  return body.customer ? previewSimpleCustomer(db, { actor: ctx.actor, at: ctx.at }, body.customer) : null;
}
