import type { Kysely } from 'kysely';
import type { Deps } from '../../app/deps.js';
import type { Database } from '../../db/database.js';
import {
  isPointsType,
  type LedgerEntryType,
  onLedgerEntryWritten,
  type LedgerEntryWritten,
  presentBalance,
  presentCard,
  presentTransaction,
} from '../ledgers/index.js';
import { onTierChanged } from '../loyalty/index.js';
import { onPublicationSucceeded, getCreatedPublication } from '../publications/index.js';
import { onRedemptionsRolledBack, onRedemptionsSucceeded, presentRedemption } from '../redemptions/index.js';
import { type GenerationCompleted, onGenerationCompleted, onGenerationFailed } from '../vouchers/index.js';
import { recordEvent } from './outbox.service.js';
import type { WebhookEventType } from './webhook-events.types.js';

type Db = Kysely<Database>;

/**
 * Webhooks' seam subscriptions (named in root/subscriptions.ts, made on every Deps, job workers'
 * included): each change a webhook may want becomes an outbox row in the change's own
 * transaction (outbox.service.ts), only when an active webhook subscribes to its type. Each
 * event's data is the objects the change's own customer event carries, in the reference's
 * v2024 event data shape where promo has the object.
 */
const LEDGER_EVENTS: Partial<Record<LedgerEntryType, WebhookEventType[]>> = {
  CREDITS_ADDITION: ['voucher.gift.balance_added'],
  POINTS_ADDITION: ['voucher.loyalty_card.points_added'],
  PENDING_POINTS_ACTIVATION: ['voucher.loyalty_card.points_added'],
  // Points an earning rule gave: the customer was rewarded.
  POINTS_ACCRUAL: ['voucher.loyalty_card.points_added', 'customer.rewarded', 'customer.rewarded.loyalty_points'],
};

async function ledgerEvents(deps: Pick<Deps, 'db'>, trx: Db, change: LedgerEntryWritten): Promise<void> {
  const { entry, card, customer, actor } = change;
  for (const type of LEDGER_EVENTS[entry.type] ?? []) {
    const data = () => ({
      ...(customer ? { customer } : {}),
      voucher: presentCard(card),
      balance: presentBalance(entry, isPointsType(entry.type) ? 'points' : 'amount'),
      transaction: presentTransaction(entry),
    });
    const entityId = type.startsWith('customer.') ? (customer?.id ?? card.id) : card.id;
    await recordEvent(deps, trx, { type, data, entityId, actor, at: entry.created_at });
  }
}

/** A generation job's end, from the job (its id is the event's group). */
async function generationEvent(
  deps: Pick<Deps, 'db'>,
  trx: Db,
  type: WebhookEventType,
  { campaignId, jobId, count, at }: GenerationCompleted,
): Promise<void> {
  const data = () => ({
    campaign: { id: campaignId, object: 'campaign' },
    async_action: { id: jobId, object: 'async_action' },
    vouchers_count: count,
  });
  const actor = { channel: 'INTERNAL', request_id: jobId } as const;
  await recordEvent(deps, trx, { type, data, entityId: campaignId, actor, at });
}

export function subscribeWebhooks(deps: Deps): void {
  onRedemptionsSucceeded(deps.seams, async (trx, { records, presented, customer, actor, at }) => {
    for (const [i, record] of records.entries()) {
      const data = () => {
        const redemption = presented()[i]!;
        return {
          ...(customer ? { customer } : {}),
          redemption,
          ...(redemption.voucher ? { voucher: redemption.voucher } : {}),
          ...(redemption.promotion_tier ? { promotion_tier: redemption.promotion_tier } : {}),
        };
      };
      await recordEvent(deps, trx, { type: 'redemption.succeeded', data, entityId: record.id, actor, at });
    }
  });
  onRedemptionsRolledBack(deps.seams, async (trx, { rollbacks, originals, customer, actor, at }) => {
    for (const [i, row] of rollbacks.entries()) {
      const data = () => {
        const rollback = presentRedemption(row);
        return {
          ...(customer ? { customer } : {}),
          redemption_rollback: rollback,
          redemption: presentRedemption(originals[i]!),
          ...(rollback.voucher ? { voucher: rollback.voucher } : {}),
        };
      };
      await recordEvent(deps, trx, { type: 'redemption.rollback.succeeded', data, entityId: row.id, actor, at });
    }
  });
  onLedgerEntryWritten(deps.seams, (trx, change) => ledgerEvents(deps, trx, change));
  onPublicationSucceeded(deps.seams, async (trx, { publicationId, actor, at }) => {
    // Read only when a webhook wants it: the publication as create-publication answers it.
    const data = async () => ({ publication: await getCreatedPublication({ db: trx }, publicationId) });
    await recordEvent(deps, trx, { type: 'publication.succeeded', data, entityId: publicationId, actor, at });
  });
  onTierChanged(deps.seams, async (trx, { event, customerId, actor, at }) => {
    // The customer event's data as it is: the reference's tier event data (customer, campaign, tier(s)).
    if (!event) return;
    await recordEvent(deps, trx, { type: event.type, data: () => event.data, entityId: customerId, actor, at });
  });
  onGenerationCompleted(deps.seams, (trx, ended) =>
    generationEvent(deps, trx, 'campaign.vouchers.generation.completed', ended),
  );
  onGenerationFailed(deps.seams, (trx, ended) =>
    generationEvent(deps, trx, 'campaign.vouchers.generation.failed', ended),
  );
}
