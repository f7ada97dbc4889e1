import { object, type InferType } from 'yup';
import { EARNING_RULE_TIER_EVENTS } from '../../lib/enums.js';
import { jsonObjectField, nullableText, shortText } from '../../lib/fields.js';
import { createCustomerSchema } from '../customers/index.js';

/** The longest event name (the reference's EventsCreateRequestBody.event maxLength). */
export const MAX_EVENT_NAME = 300;

/**
 * Names the engine's own earning events carry: a custom event of that name would fire the
 * rules of paid orders, segments or tiers, so it is refused.
 */
const RESERVED_EVENT_NAMES: readonly string[] = ['order.paid', 'customer.segment.entered', ...EARNING_RULE_TIER_EVENTS];

/**
 * POST /v1/events and /client/v1/events (the reference's EventsCreateRequestBody and
 * ClientEventsCreateRequestBody, one shape): the event's name, the customer it belongs to
 * (upserted by id or source_id, so one of them is needed), `referral` and `loyalty` (the card
 * that earns), and the event's metadata. Other fields are ignored, as the reference does.
 */
export const trackEventSchema = object({
  event: shortText('event', MAX_EVENT_NAME)
    .required('event is a required field')
    .test(
      'not-reserved',
      '${path} ${value} is the name of a built-in event, not a custom one',
      (v) => v === undefined || !RESERVED_EVENT_NAMES.includes(v),
    ),
  customer: createCustomerSchema
    .typeError('customer must be an object')
    .required('customer is a required field')
    .default(undefined)
    .test('named', 'customer must have an id or a source_id', (c) => !c || c.id != null || c.source_id != null),
  referral: object({
    code: nullableText('referral.code').optional(),
    referrer_id: nullableText('referral.referrer_id').optional(),
  })
    .typeError('referral must be an object')
    .nullable()
    .optional()
    .default(undefined),
  loyalty: object({ code: nullableText('loyalty.code').optional() })
    .typeError('loyalty must be an object')
    .nullable()
    .optional()
    .default(undefined),
  metadata: jsonObjectField('metadata').nullable().optional(),
}).typeError('The body must be a JSON object');

export type TrackEventBody = InferType<typeof trackEventSchema>;
