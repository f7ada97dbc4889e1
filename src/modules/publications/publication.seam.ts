import type { Tx } from '../../db/engine.js';
import type { Actor } from '../../lib/actor.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';

/**
 * THE PUBLICATION SEAM: fired inside the transaction that records a new publication
 * (recordPublication: POST /v1/publications, POST /v1/loyalties/{id}/members), not when an
 * earlier one answers again. Webhooks' outbox subscribes.
 */
export interface PublicationSucceeded {
  publicationId: string;
  actor: Actor;
  at: string;
}

export const PUBLICATION_SUCCEEDED = seam<Tx, PublicationSucceeded>('publication.succeeded');

export const onPublicationSucceeded = (seams: Seams, subscriber: Subscriber<Tx, PublicationSucceeded>): (() => void) =>
  seams.subscribe(PUBLICATION_SUCCEEDED, subscriber);
