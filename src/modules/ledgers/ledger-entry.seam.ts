import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';
import type { SimpleCustomer } from '../customers/index.js';
import type { CardFields, LedgerEntryRow } from './ledgers.repository.js';

/**
 * THE LEDGER ENTRY SEAM: fired inside the transaction of every change of a gift card's credits
 * or a loyalty card's points, once the entry and the card's balance are written (applyEffects).
 * Webhooks' outbox subscribes (gift balance added, points added, customer rewarded): what a
 * subscriber writes commits with the change.
 */
export interface LedgerEntryWritten {
  entry: LedgerEntryRow;
  /** The card after the change. */
  card: CardFields;
  /** The card's holder, if it has a live one. */
  customer: SimpleCustomer | null;
  actor: Actor;
}

export const LEDGER_ENTRY_WRITTEN = seam<Tx, LedgerEntryWritten>('ledger.entry_written');

export const onLedgerEntryWritten = (seams: Seams, subscriber: Subscriber<Tx, LedgerEntryWritten>): (() => void) =>
  seams.subscribe(LEDGER_ENTRY_WRITTEN, subscriber);
