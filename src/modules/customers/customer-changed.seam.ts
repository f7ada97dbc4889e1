import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';
import type { SimpleCustomer } from './customers.presenter.js';
import type { CustomerRow } from './customers.repository.js';

/**
 * THE CUSTOMER-CHANGED SEAM: fired inside the transaction that created a customer or changed
 * one's stored fields (customers.service: POST/PUT /v1/customers and every upsert whose
 * ChangeContext carries the seams), after the row is written. Segments subscribe: a customer's
 * auto-update memberships follow its fields in the same transaction.
 */
export interface CustomerChanged {
  /** The row after the change. */
  row: CustomerRow;
  customer: SimpleCustomer;
  created: boolean;
  actor: Actor;
  at: string;
  /** False for historical imports: memberships follow, but no activity is written. */
  emitEvents: boolean;
}

export const CUSTOMER_CHANGED = seam<Tx, CustomerChanged>('customer.changed');

/** Subscribes to customer creates and updates (at composition); returns the unsubscribe. */
export const onCustomerChanged = (seams: Seams, subscriber: Subscriber<Tx, CustomerChanged>): (() => void) =>
  seams.subscribe(CUSTOMER_CHANGED, subscriber);
