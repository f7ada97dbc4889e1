import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { presentSimpleCampaign, findCampaign, findCampaignOrNone, getCampaign } from '../campaigns/index.js';
import { type CustomerObject, findSimpleCustomer, getCustomer, upsertCustomer } from '../customers/index.js';
import { emit } from '../events/index.js';
import { getVoucher } from '../vouchers/index.js';
import { giveCampaignVouchers, giveNamedVoucher, type Given, type Who } from './give-voucher.service.js';
import { presentPublication, voucherSnapshot } from './publications.presenter.js';
import * as repo from './publications.repository.js';
import type { CreatePublicationBody } from './publications.schemas.js';
import type { Db, Tx } from '../../db/engine.js';
import { PUBLICATION_SUCCEEDED } from './publication.seam.js';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/** What a publication records beside its voucher: the request's source_id, metadata and channel. */
export interface PublicationFields {
  source_id?: string | null;
  metadata?: Record<string, unknown> | null;
  channel?: string | null;
}

const rowFields = (customer: CustomerObject, fields: PublicationFields, who: Who) => ({
  id: newId('pub_'),
  created_at: who.at,
  customer_id: customer.id,
  tracking_id: customer.source_id ?? null,
  metadata: JSON.stringify(fields.metadata ?? {}),
  channel: fields.channel ?? who.actor.channel,
  source_id: fields.source_id ?? null,
});

/**
 * Records a successful publication of the vouchers just given to the customer (one, or a
 * campaign's `count`), inside the caller's transaction: the row the list reads, the
 * customer's `customer.publication.succeeded` event (its publication shows the customer as it
 * is now) and the publication seam (webhooks' `publication.succeeded`), whichever way the
 * voucher was given (create-publication, a loyalty program's add-member). A publication of several keeps them all in `vouchers` and the first in the list's
 * voucher columns (sql/0027).
 */
export async function recordPublication(
  deps: Pick<Deps, 'seams'>,
  trx: Tx,
  customerId: string,
  given: Given | readonly Given[],
  fields: PublicationFields,
  who: Who,
): Promise<string> {
  const all = Array.isArray(given) ? (given as readonly Given[]) : [given as Given];
  const first = all[0] as Given;
  const [customer, simple, voucher] = await Promise.all([
    getCustomer({ db: trx }, customerId),
    findSimpleCustomer(trx, customerId),
    getVoucher({ db: trx }, first.code),
  ]);
  const many = all.length > 1;
  const row = {
    ...rowFields(customer, fields, who),
    result: 'SUCCESS' as const,
    failure_code: null,
    failure_message: null,
    voucher_id: voucher.id,
    voucher_code: voucher.code,
    campaign_id: voucher.campaign_id,
    campaign_name: voucher.campaign,
    voucher_type: voucher.type,
    is_referral_code: voucher.is_referral_code ? 1 : 0,
    voucher_snapshot: many ? null : JSON.stringify(voucherSnapshot(voucher)),
    vouchers: many ? JSON.stringify(all.map((v) => ({ id: v.id, code: v.code }))) : null,
  };
  await repo.insertPublication(trx, row);
  const campaign = voucher.campaign_id === null ? undefined : await getCampaign({ db: trx }, voucher.campaign_id);
  await emit(trx, {
    type: 'customer.publication.succeeded',
    customer_id: customer.id,
    data: {
      customer: simple,
      ...(campaign && { campaign: presentSimpleCampaign(campaign) }),
      publication: presentPublication({ ...row, seq: 0 }, customer),
    },
    actor: who.actor,
    created_at: who.at,
    ...(campaign && { campaign: { id: campaign.id, type: campaign.campaign_type } }),
  });
  await deps.seams.fire(PUBLICATION_SUCCEEDED, trx, { publicationId: row.id, actor: who.actor, at: who.at });
  return row.id;
}

/** How many vouchers the campaign gives (`campaign.count`, 1 unless given). */
const campaignCount = (campaign: CreatePublicationBody['campaign']): number =>
  typeof campaign === 'object' && campaign !== null ? (campaign.count ?? 1) : 1;

/** The campaign's id or name: a campaign object is read by its id first (unique), else its name. */
const campaignRef = (campaign: CreatePublicationBody['campaign']): string | undefined =>
  campaign == null ? undefined : typeof campaign === 'string' ? campaign : (campaign.id ?? campaign.name ?? undefined);

/**
 * The publication's work in one transaction: a source_id seen before answers its publication;
 * join_once (the query's, or the campaign's own) answers the customer's earlier publication
 * in the campaign; otherwise the customer is upserted and given the named voucher or the
 * campaign's next one.
 */
async function publish(
  deps: WriteDeps,
  trx: Tx,
  body: CreatePublicationBody,
  joinOnce: boolean,
  who: Who,
): Promise<string> {
  if (body.source_id != null) {
    const earlier = await repo.findPublicationBySourceId(trx, body.source_id);
    if (earlier) return earlier.id;
  }
  const ref = campaignRef(body.campaign);
  const campaign = ref === undefined ? undefined : await findCampaign(trx, ref);
  const { customer } = await upsertCustomer(trx, { ...who, seams: deps.seams }, body.customer);
  if (campaign && (joinOnce || campaign.join_once === 1)) {
    const earlier = await repo.findCampaignPublication(trx, customer.id, campaign.id);
    if (earlier) return earlier.id;
  }
  const given =
    body.voucher != null
      ? await giveNamedVoucher(deps, trx, body.voucher, customer.id, who, campaign?.id)
      : await giveCampaignVouchers(
          deps,
          trx,
          campaign as NonNullable<typeof campaign>,
          customer.id,
          who,
          campaign?.type === 'AUTO_UPDATE',
          campaignCount(body.campaign),
        );
  return recordPublication(deps, trx, customer.id, given, body, who);
}

/** Refusals that a publication records as a failed one (the others leave no trace). */
const RECORDED_FAILURES = new Set(['no_voucher_suitable_for_publication', 'holder_assignement_duplication']);

/**
 * A publication that found no voucher to give is recorded, as the reference lists failed
 * publications: in a transaction of its own (the refused one rolled back), the customer
 * upserted, a FAILURE row and a `customer.publication.failed` event.
 */
async function recordFailure(deps: WriteDeps, body: CreatePublicationBody, error: AppError, who: Who): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const { customer } = await upsertCustomer(trx, { ...who, seams: deps.seams }, body.customer);
    const ref = campaignRef(body.campaign);
    const campaign = ref === undefined ? null : await findCampaignOrNone(trx, ref);
    const row = {
      ...rowFields(customer, body, who),
      result: 'FAILURE' as const,
      failure_code: error.key,
      failure_message: error.details ?? null,
      campaign_id: campaign?.id ?? null,
      campaign_name: campaign?.name ?? null,
      voucher_id: null,
      voucher_code: body.voucher ?? null,
      voucher_type: null,
      is_referral_code: 0,
      voucher_snapshot: null,
      vouchers: null,
    };
    await repo.insertPublication(trx, row);
    const simple = await findSimpleCustomer(trx, customer.id);
    const campaignView = campaign ? await getCampaign({ db: trx }, campaign.id) : undefined;
    const publication = presentPublication({ ...row, seq: 0 }, customer);
    await emit(trx, {
      type: 'customer.publication.failed',
      customer_id: customer.id,
      data: { customer: simple, ...(campaignView && { campaign: presentSimpleCampaign(campaignView) }), publication },
      actor: who.actor,
      created_at: who.at,
      ...(campaignView && { campaign: { id: campaignView.id, type: campaignView.campaign_type } }),
    });
  });
}

/**
 * POST /v1/publications and GET /v1/publications/create (the reference's create-publication):
 * gives the customer a voucher and answers the publication with the whole voucher and the short
 * customer (PublicationsCreateResponseBody).
 */
export async function createPublication(
  deps: WriteDeps,
  body: CreatePublicationBody,
  joinOnce: boolean,
  actor: Who['actor'],
) {
  const who = { actor, at: isoNow(deps.clock) };
  let id: string;
  try {
    id = await deps.db.transaction().execute((trx) => publish(deps, trx, body, joinOnce, who));
  } catch (error) {
    if (error instanceof AppError && RECORDED_FAILURES.has(error.key)) await recordFailure(deps, body, error, who);
    throw error;
  }
  return getCreatedPublication(deps, id);
}

/**
 * A publication as create-publication answers it: the short customer (id, name, email,
 * source_id, metadata), as it is now, as the reference's recorded answers and the SDK's
 * SimpleCustomer show it (its schema names the whole customer), and the voucher whole; a
 * publication of several vouchers answers `vouchers` (codes) and `vouchers_id` instead (the
 * reference's multi-voucher form).
 */
export async function getCreatedPublication(deps: Pick<Deps, 'db'>, id: string) {
  const row = await repo.findPublicationById(deps.db, id);
  if (!row || row.voucher_code === null) throw new AppError('internal_error', `Publication ${id} vanished`);
  const customer = await findSimpleCustomer(deps.db, row.customer_id);
  const { vouchers: codes, ...publication } = presentPublication(row, customer);
  if (row.vouchers !== null) return { ...publication, vouchers: codes };
  return { ...publication, voucher: await getVoucher(deps, row.voucher_code) };
}
