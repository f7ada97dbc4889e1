import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Contract checks for the customer operations against
 * shared/reference/voucherify-openapi-subset.json.
 *
 * The shared assertMatchesReference (test/support/openapi.ts) cannot compile these two
 * operations as they stand in the reference, for two reasons this helper works around:
 * 1. `nullable: true` beside `allOf` without a `type` (summary, loyalty, referrals of
 *    CustomerWithSummaryLoyaltyReferrals): ajv refuses it. Here it becomes anyOf [schema, null].
 * 2. CustomerActivityData is a `oneOf` whose branches for customer.created, .updated, .deleted
 *    and .confirmed are the same schema, so no payload of those types can match exactly one.
 *    Here that oneOf is an anyOf, and each item's data.data is then checked against the one
 *    schema its `type` names (EventCustomerCreated for customer.created, and so on).
 */
type Json = unknown;

function fixNullable(node: Json): Json {
  if (Array.isArray(node)) return node.map(fixNullable);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) out[key] = fixNullable(value);
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _dropped, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

const SPEC_FILE = new URL('../../../../shared/reference/voucherify-openapi-subset.json', import.meta.url);
const spec = fixNullable(JSON.parse(readFileSync(SPEC_FILE, 'utf8'))) as {
  components: { schemas: Record<string, Record<string, Json>> };
};
const activityData = spec.components.schemas.CustomerActivityData as Record<string, Json>;
activityData.anyOf = activityData.oneOf;
delete activityData.oneOf;

const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema(spec as object, 'subset');

const compiled = new Map<string, ValidateFunction>();
function compile(ref: string): ValidateFunction {
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `subset#${ref}` });
    compiled.set(ref, validate);
  }
  return validate;
}

function check(validate: ValidateFunction, body: Json, what: string): void {
  if (!validate(body)) assert.fail(`${what} does not match the reference:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
}

const pathRef = (method: string, path: string, status: number): string =>
  `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;

/** Event types whose schema name does not follow from the type name. */
const IRREGULAR_EVENT_SCHEMAS: Record<string, string> = {
  'customer.activecampaign.sent': 'EventCustomerActiveCampaignSent',
  'customer.activecampaign.recovered': 'EventCustomerActiveCampaignRecovered',
  'customer.activecampaign.failed': 'EventCustomerActiveCampaignFailed',
  'customer.voucher.gift.balance_added': 'EventCustomerGiftVoucherBalanceAdded',
  'customer.voucher.loyalty_card.points_expired': 'EventCustomerVouchersLoyaltyPointsExpired',
  'customer.voucher.loyalty_card.points_activated': 'EventCustomerLoyaltyCardPointsAdded',
  'customer.reward_redemptions.rolledback': 'EventCustomerRewardRedemptionsRolledBack',
};

/** customer.order.paid -> EventCustomerOrderPaid; customer.voucher.loyalty_card.x -> EventCustomerLoyaltyCardX */
export const eventSchemaName = (type: string): string =>
  IRREGULAR_EVENT_SCHEMAS[type] ??
  `Event${type
    .replace(/^customer\.voucher\.loyalty_card\./, 'customer.loyalty_card.')
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;

/** Asserts that an answer of GET /v1/customers or .../activity matches the reference. */
export function assertCustomerReference(method: string, path: string, status: number, body: Json): void {
  check(compile(pathRef(method, path, status)), body, `${method} ${path} ${status}`);
  if (path !== '/v1/customers/{customerId}/activity' || status !== 200) return;
  for (const item of (body as { data: Array<{ type: string; data: { data: Json } }> }).data) {
    const name = eventSchemaName(item.type);
    assert.ok(spec.components.schemas[name], `The reference has no schema ${name} for ${item.type}`);
    check(compile(`/components/schemas/${name}`), item.data.data, `data.data of ${item.type}`);
  }
}

/** Asserts that a customer object (GET/POST/PUT answer) matches CustomerWithSummaryLoyaltyReferrals. */
export function assertCustomerObject(body: Json): void {
  check(compile('/components/schemas/CustomerWithSummaryLoyaltyReferrals'), body, 'customer');
}
