import { mixed, number, object, type InferType } from 'yup';
import { idField, isPlainObject, jsonObjectField, shortText } from '../../lib/fields.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { oneOf, querySchema, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { createCustomerSchema } from '../customers/index.js';

/** The most vouchers one publication gives (the reference's CreatePublicationCampaign.count maximum). */
export const MAX_PUBLICATION_COUNT = 50;

/** The `campaign` object: the reference's CreatePublicationCampaign, or a whole campaign object. */
export interface PublicationCampaign {
  name?: string | null;
  id?: string | null;
  count?: number | null;
}

/**
 * `campaign`: its name or id as text, or the reference's CreatePublicationCampaign object
 * {name, count}: `count` vouchers (1..50) in one publication, all or none. As the real API
 * does, it may be null beside a voucher, and a whole campaign object (as a client read it)
 * names its campaign by `id` or `name`; its other keys are not read.
 */
const campaignField = mixed<string | PublicationCampaign>()
  .nullable()
  .test('campaign', 'campaign must be a campaign name or an object with a name', function check(value) {
    if (value === undefined || value === null) return true;
    if (typeof value === 'string')
      return value.length > 0 || this.createError({ message: 'campaign must not be empty' });
    if (!isPlainObject(value)) return false;
    const nested = object({
      name: idField('campaign.name').nullable().optional(),
      id: idField('campaign.id').nullable().optional(),
      count: number()
        .strict()
        .typeError('campaign.count must be a number')
        .integer('campaign.count must be an integer')
        .min(1, 'campaign.count must be greater than or equal to 1')
        .max(MAX_PUBLICATION_COUNT, `campaign.count must be less than or equal to ${MAX_PUBLICATION_COUNT}`)
        .nullable()
        .optional(),
    }).test('named', 'campaign.name is a required field', (v) => v.name != null || v.id != null);
    try {
      // Strict, as every body is (lib/validate.ts): a cast would pass `name: true` as "true" and send the boolean on.
      nested.validateSync(value, { abortEarly: false, strict: true });
      return true;
    } catch (error) {
      return this.createError({ message: (error as { errors: string[] }).errors.join(', ') });
    }
  })
  .optional();

/**
 * POST /v1/publications (the reference's PublicationsCreateRequestBody): the customer
 * (upserted by id or source_id), and either a named `voucher` or a `campaign` to take one
 * from; the publication's source_id, metadata and channel.
 */
export const createPublicationSchema = object({
  customer: createCustomerSchema
    .typeError('customer must be an object')
    .required('customer is a required field')
    .default(undefined),
  voucher: idField('voucher').nullable().optional(),
  campaign: campaignField,
  source_id: shortText('source_id').nullable().optional(),
  metadata: jsonObjectField('metadata').nullable().optional(),
  channel: shortText('channel').nullable().optional(),
})
  .test(
    'voucher-or-campaign',
    'Either voucher or campaign is required',
    (body) => !body || body.voucher != null || body.campaign != null,
  )
  .test(
    'count-without-voucher',
    'campaign.count above 1 takes vouchers from the campaign: it cannot go with a named voucher',
    (body) =>
      !body ||
      body.voucher == null ||
      typeof body.campaign !== 'object' ||
      body.campaign === null ||
      (body.campaign.count ?? 1) <= 1,
  )
  .typeError('The body must be a JSON object');

export type CreatePublicationBody = InferType<typeof createPublicationSchema>;

const joinOnceSchema = querySchema({ join_once: oneOf(['true', 'false'] as const) });

/**
 * POST /client/v1/publish (the SDK's client-side `publish`): the customer, the publication's
 * source_id, metadata and channel. A client key publishes one voucher of the campaign its
 * query names, never a voucher it names (that would let any browser claim a known code).
 */
export const clientPublishSchema = object({
  customer: createPublicationSchema.fields.customer,
  voucher: mixed().test(
    'no-voucher',
    'voucher cannot be named client-side: a client key publishes from the campaign the query names',
    (v) => v === undefined,
  ),
  source_id: createPublicationSchema.fields.source_id,
  metadata: createPublicationSchema.fields.metadata,
  channel: createPublicationSchema.fields.channel,
}).typeError('The body must be a JSON object');

const clientPublishQuerySchema = querySchema({ campaign: text(), join_once: oneOf(['true', 'false'] as const) });

/** The request of POST /client/v1/publish as create-publication's body (one voucher of `campaign`), and its join_once. */
export function parseClientPublish(
  query: Record<string, unknown>,
  body: unknown,
): { body: CreatePublicationBody; joinOnce: boolean } {
  const params = parse(clientPublishQuerySchema, { campaign: query.campaign, join_once: query.join_once }, 'query');
  if (params.campaign === undefined || params.campaign.trim() === '')
    throw invalidQueryParams('Query parameter campaign is required: the campaign to publish from');
  const { voucher: _voucher, ...fields } = parse(clientPublishSchema, body, 'body');
  return {
    body: { ...fields, campaign: params.campaign } as CreatePublicationBody,
    joinOnce: params.join_once === 'true',
  };
}

/** `join_once` of either create operation: true, false or absent. */
export const parseJoinOnce = (query: Record<string, unknown>): boolean =>
  parse(joinOnceSchema, { join_once: query.join_once }, 'query').join_once === 'true';

const OBJECT_PARAMS = ['customer', 'campaign', 'metadata'];

/**
 * GET /v1/publications/create: the same request as query parameters, its objects as the
 * reference's deepObject style (`customer[source_id]=x`, `customer[address][city]=y`,
 * `metadata[k]=v`). Nested into the body's shape and checked by the body's schema; a key
 * outside it is 400 invalid_query_params.
 */
export function parseCreateQuery(query: Record<string, unknown>): CreatePublicationBody {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === 'join_once') continue;
    if (typeof value !== 'string') throw invalidQueryParams(`Query parameter ${key} must be given once`);
    const path = key.split(/\]?\[|\]/).filter((part) => part !== '');
    const [head, ...rest] = path;
    if (
      head === undefined ||
      (rest.length > 0 && !OBJECT_PARAMS.includes(head)) ||
      (rest.length === 0 && !['voucher', 'campaign', 'source_id', 'channel'].includes(head))
    ) {
      throw invalidQueryParams(`Unknown query parameter: ${key}`);
    }
    // Every value arrives as text: `campaign[count]` is read as the number it spells.
    setPath(body, path, key === 'campaign[count]' && /^\d+$/.test(value) ? Number(value) : value);
  }
  return parse(createPublicationSchema, body, 'body');
}

function setPath(target: Record<string, unknown>, path: string[], value: string | number): void {
  let node = target;
  for (const part of path.slice(0, -1)) {
    if (!isPlainObject(node[part])) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}
