import type { Tx } from '../../db/engine.js';
import { lockOrder } from '../../db/locks.js';
import type { Actor } from '../../lib/actor.js';
import { AppError } from '../../lib/errors.js';
import { findLiveCampaign, type CampaignRow } from '../campaigns/index.js';
import { addLoyaltyPoints, findSimpleCustomers } from '../customers/index.js';
import { type CustomerEventInput, emitMany } from '../events/index.js';
import { entryRow, type Db, type LedgerDeps } from './ledger-write.service.js';
import { TYPE_EFFECTS } from './ledger.types.js';
import { presentBalance, presentCard, presentTransaction } from './ledgers.presenter.js';
import * as repo from './ledgers.repository.js';
import * as bucketsRepo from './points-buckets.repository.js';
import { POINTS_CHANGED } from './points-changed.seam.js';
import * as expiry from './points-expiry.repository.js';

/**
 * Writes what a batch of claimed buckets owes, set-based: a card's due buckets are shifted off
 * its balance by one guarded statement (their sum), each bucket gets its POINTS_EXPIRATION row
 * and draw, holders their loyalty points and points_expired events, and the points seam fires
 * once per card with the total. Rows, draws, events, cards and holders go in one statement each.
 */
interface CardExpiry {
  card: repo.CardFields;
  /** The card's claimed buckets with points, soonest first. */
  buckets: expiry.ClaimedBucket[];
  points: number;
  /** The card after the shift and the next-expiration refresh. */
  after: repo.CardFields;
  entries: repo.LedgerEntryRow[];
}

interface SweepRun {
  actor: Actor;
  at: string;
}

function dueByCard(claimed: expiry.ClaimedBucket[]): Map<string, expiry.ClaimedBucket[]> {
  const byCard = new Map<string, expiry.ClaimedBucket[]>();
  const sorted = claimed
    .filter((b) => b.expired_points > 0)
    .sort((a, b) => lockOrder(a.expires_on, b.expires_on) || lockOrder(a.id, b.id));
  for (const bucket of sorted) byCard.set(bucket.voucher_id, [...(byCard.get(bucket.voucher_id) ?? []), bucket]);
  return byCard;
}

/** THE guarded balance change of one card, for all its due buckets at once. */
async function shiftCard(trx: Tx, card: repo.CardFields, points: number, at: string): Promise<repo.CardFields> {
  const counter = TYPE_EFFECTS.POINTS_EXPIRATION.counter;
  const after = await repo.shiftBalance(trx, {
    voucherId: card.id,
    balanceColumn: 'loyalty_balance',
    delta: -points,
    counter: counter && { column: counter.column, delta: counter.sign * points },
    at,
  });
  // The buckets sum to at most the balance: a refusal is a broken invariant, and fails the batch.
  if (!after)
    throw new AppError(
      'loyalty_card_points_exceeded',
      `Cannot expire ${points} points of ${card.code}: its balance is ${card.loyalty_balance ?? 0}`,
    );
  return after;
}

/** One row per bucket, each with the balance after it (the card's rows read as if expired one by one). */
function entriesOf(
  card: repo.CardFields,
  after: repo.CardFields,
  buckets: expiry.ClaimedBucket[],
  run: SweepRun,
): repo.LedgerEntryRow[] {
  let balance = (after.loyalty_balance ?? 0) + buckets.reduce((sum, b) => sum + b.expired_points, 0);
  return buckets.map((bucket) => {
    balance -= bucket.expired_points;
    const input = {
      voucherId: card.id,
      amount: bucket.expired_points,
      operationType: 'AUTOMATIC' as const,
      actor: run.actor,
      at: run.at,
    };
    return entryRow(card, { ...after, loyalty_balance: balance }, 'POINTS_EXPIRATION', input, null);
  });
}

async function shiftCards(trx: Tx, claimed: expiry.ClaimedBucket[], run: SweepRun): Promise<CardExpiry[]> {
  const byCard = dueByCard(claimed);
  // A deleted card's buckets are only retired: there is no card left to write a row for.
  const cards = (await expiry.findCards(trx, [...byCard.keys()])).sort((a, b) => lockOrder(a.id, b.id));
  const shifted: Array<Omit<CardExpiry, 'entries'>> = [];
  for (const card of cards) {
    const buckets = byCard.get(card.id) ?? [];
    const points = buckets.reduce((sum, b) => sum + b.expired_points, 0);
    shifted.push({ card, buckets, points, after: await shiftCard(trx, card, points, run.at) });
  }
  const next = new Map(
    (
      await expiry.refreshNextExpirations(
        trx,
        cards.map((c) => c.id),
      )
    ).map((r) => [r.id, r]),
  );
  return shifted.map((change) => {
    const after = { ...change.after, ...next.get(change.card.id) };
    return { ...change, after, entries: entriesOf(change.card, after, change.buckets, run) };
  });
}

async function liveCampaigns(trx: Tx, changes: CardExpiry[]): Promise<Map<string, CampaignRow | undefined>> {
  const campaigns = new Map<string, CampaignRow | undefined>();
  for (const { card } of changes) {
    if (card.campaign_id !== null && !campaigns.has(card.campaign_id))
      campaigns.set(card.campaign_id, await findLiveCampaign(trx, card.campaign_id));
  }
  return campaigns;
}

/** The holders' loyalty points (one change per holder and program) and their points_expired events. */
async function tellHolders(trx: Tx, changes: CardExpiry[], run: SweepRun): Promise<Map<string, string>> {
  const customers = await findSimpleCustomers(
    trx,
    changes.flatMap((c) => (c.card.holder_id === null ? [] : [c.card.holder_id])),
  );
  const campaigns = await liveCampaigns(trx, changes);
  const owed = new Map<string, { customer_id: string; campaign: { id: string; name: string }; points: number }>();
  const events: CustomerEventInput[] = [];
  const holders = new Map<string, string>();
  for (const { card, after, points, entries } of changes) {
    const customer = card.holder_id === null ? undefined : customers.get(card.holder_id);
    if (!customer) continue;
    holders.set(card.id, customer.id);
    const campaign = card.campaign_id === null ? undefined : campaigns.get(card.campaign_id);
    if (campaign) {
      const key = `${customer.id} ${campaign.id}`;
      const line = owed.get(key) ?? {
        customer_id: customer.id,
        campaign: { id: campaign.id, name: campaign.name },
        points: 0,
      };
      owed.set(key, { ...line, points: line.points + points });
    }
    for (const entry of entries) {
      const data = {
        customer,
        voucher: presentCard(after),
        balance: presentBalance(entry, 'points'),
        transaction: presentTransaction(entry),
      };
      events.push({
        type: 'customer.voucher.loyalty_card.points_expired',
        customer_id: customer.id,
        data,
        actor: run.actor,
        created_at: run.at,
        campaign: campaign && { id: campaign.id, type: campaign.campaign_type },
      });
    }
  }
  for (const line of owed.values()) await addLoyaltyPoints(trx, { ...line, points: -line.points, at: run.at });
  await emitMany(trx, events);
  return holders;
}

export async function expireClaimed(
  deps: LedgerDeps,
  trx: Tx,
  claimed: expiry.ClaimedBucket[],
  run: SweepRun,
): Promise<void> {
  const changes = await shiftCards(trx, claimed, run);
  if (changes.length === 0) return;
  const entries = changes.flatMap((c) => c.entries);
  await expiry.insertEntries(
    trx,
    entries.map(({ seq: _seq, ...row }) => row),
  );
  await bucketsRepo.insertDraws(
    trx,
    changes.flatMap((c) =>
      c.buckets.map((b, i) => ({
        entry_id: (c.entries[i] as repo.LedgerEntryRow).id,
        bucket_id: b.id,
        points: b.expired_points,
      })),
    ),
  );
  const holders = await tellHolders(trx, changes, run);
  for (const { card, after, points } of changes) {
    const change = {
      voucherId: card.id,
      campaignId: card.campaign_id,
      customerId: holders.get(card.id) ?? null,
      delta: -points,
      balance: after.loyalty_balance ?? 0,
    };
    await deps.seams.fire(POINTS_CHANGED, trx, { ...change, type: 'POINTS_EXPIRATION', at: run.at, actor: run.actor });
  }
}
