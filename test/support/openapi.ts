import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Validates answers against the reference's response schemas
 * (reference/voucherify-openapi-subset.json in this repository, OpenAPI 3.0; operations it leaves out
 * against the whole voucherify-openapi.json).
 *
 * Two defects of the reference are mended on load, the same way for every test:
 * 1. `nullable: true` beside `allOf` without a `type` (ajv refuses it) becomes
 *    anyOf [schema, null], which is what OpenAPI 3.0 means by it.
 * 2. CustomerActivityData is a `oneOf` whose customer.created/.updated/.deleted/.confirmed
 *    branches are the same schema, so no such payload could match exactly one: it becomes an
 *    anyOf (tests then check `data.data` against the schema its `type` names).
 * 3. The ORDERS.IMPORT result types `failed` as one object, while the reference's examples
 *    (and every other import result) list failures in an array (reference/voucherify-facts.md 2.2): it
 *    becomes an array of that object.
 */
type Json = unknown;

function mendNullable(node: Json): Json {
  if (Array.isArray(node)) return node.map(mendNullable);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) out[key] = mendNullable(value);
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _dropped, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

const SPEC_FILE = new URL('../../reference/voucherify-openapi-subset.json', import.meta.url);

export const referenceSpec = mendNullable(JSON.parse(readFileSync(SPEC_FILE, 'utf8'))) as {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> }>
  >;
  components: { schemas: Record<string, Record<string, Json>> };
};
const activityData = referenceSpec.components.schemas.CustomerActivityData;
if (activityData?.oneOf) {
  activityData.anyOf = activityData.oneOf;
  delete activityData.oneOf;
}
const ordersImportResult = referenceSpec.components.schemas['17_res_obj_get_async_action_result_orders_import'] as {
  properties?: Record<string, Json>;
};
const ordersFailed = ordersImportResult?.properties?.failed as { type?: string; description?: string } | undefined;
if (ordersImportResult.properties && ordersFailed?.type === 'object') {
  const { description, ...item } = ordersFailed;
  ordersImportResult.properties.failed = { type: 'array', description, items: item };
}

const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema(referenceSpec as object, 'subset');

const compiled = new Map<string, ValidateFunction>();

/** A validator for a JSON pointer into the reference (`/components/schemas/Sku`). */
function compile(pointer: string, source: 'subset' | 'full' = 'subset'): ValidateFunction {
  const ref = `${source}#${pointer}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  return validate;
}

function check(validate: ValidateFunction, body: Json, what: string): void {
  if (!validate(body))
    assert.fail(`${what} does not match the reference:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
}

const FULL_SPEC_FILE = new URL('../../reference/voucherify-openapi.json', import.meta.url);

type Spec = typeof referenceSpec;

/**
 * The whole reference (3 MB), for operations beyond the subset's (the orders endpoints): read on
 * first use only, mended the same way.
 */
let fullSpec: Spec | undefined;
function fullReference(): Spec {
  if (!fullSpec) {
    fullSpec = mendNullable(JSON.parse(readFileSync(FULL_SPEC_FILE, 'utf8'))) as Spec;
    ajv.addSchema(fullSpec as object, 'full');
  }
  return fullSpec;
}

const responseSchema = (spec: Spec, method: string, path: string, status: number) =>
  spec.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.['application/json']?.schema;

/**
 * Asserts that `body` is a valid answer of the reference's operation (path as templated
 * there): from the subset, or from the whole reference for operations the subset leaves out.
 */
export function assertMatchesReference(method: string, path: string, status: number, body: Json): void {
  const source = responseSchema(referenceSpec, method, path, status) ? 'subset' : 'full';
  const schema = responseSchema(source === 'subset' ? referenceSpec : fullReference(), method, path, status);
  assert.ok(schema, `The reference has no JSON schema for ${method} ${path} ${status}`);
  const pointer = `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  check(compile(pointer, source), body, `${method} ${path} ${status}`);
}

/** Asserts that `body` matches one of the reference's component schemas, by name. */
export function assertMatchesSchema(name: string, body: Json): void {
  assert.ok(referenceSpec.components.schemas[name], `The reference has no schema ${name}`);
  check(compile(`/components/schemas/${name}`), body, name);
}

/**
 * The reference's schemas type many voucher and campaign fields as plain strings or objects
 * that the real API answers as null (`category`, `gift` of a discount voucher, dates...), so a
 * body is checked against the reference without its null fields; every other field is checked.
 */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  ) as T;
}

/**
 * The reference's schemas type a reward's `metadata` as an object, while its recorded rewards
 * answer null when none was given (GET /v1/rewards, GET .../reward-assignments/{id}/reward), as
 * promo does: each list entry's reward is checked with {} in place of a null metadata.
 */
export function rewardsWithObjectMetadata<T extends { data: { reward: { metadata?: unknown } }[] }>(page: T): T {
  return {
    ...page,
    data: page.data.map((entry) => ({ ...entry, reward: { ...entry.reward, metadata: entry.reward.metadata ?? {} } })),
  };
}

const RESULT_SCHEMA: Record<string, string> = {
  'CAMPAIGN.VOUCHERS_GENERATE': '17_res_obj_get_async_action_result_campaign_vouchers_generate',
  'CAMPAIGN.VOUCHERS_IMPORT': '17_res_obj_get_async_action_result_campaign_vouchers_import',
  'CAMPAIGN.VOUCHERS_UPDATE': '17_res_obj_get_async_action_result_campaign_vouchers_update',
  'CAMPAIGN.VOUCHERS_DELETE': '17_res_obj_get_async_action_result_campaign_vouchers_delete',
  'ORDERS.IMPORT': '17_res_obj_get_async_action_result_orders_import',
  'CUSTOMERS.IMPORT_CSV': '17_res_obj_get_async_action_result_customers_import_csv',
  'SKUS.IMPORT_CSV': '17_res_obj_get_async_action_result_skus_import_csv',
  'VOUCHERS.IMPORT_CSV': '17_res_obj_get_async_action_result_vouchers_import_csv',
  'CAMPAIGN.VOUCHERS_IMPORT_CSV': '17_res_obj_get_async_action_result_campaign_vouchers_import_csv',
  // The reference has no result schema of its own for PRODUCTS.IMPORT_CSV; it is the SKUs' shape.
  'PRODUCTS.IMPORT_CSV': '17_res_obj_get_async_action_result_skus_import_csv',
};

/**
 * The result of *.BULK_UPDATE and *.METADATA_UPDATE, which the reference gives no component
 * schema but shows in its examples of GET /v1/async-actions/{id} (and voucherify-facts 2.2
 * describes): every field required, nothing else. `reports_available_till` may be null
 * (our reports do not expire; docs/api.md "Bulk updates"). test/api/bulk-updates-reference.test.ts
 * checks that the reference's own examples match it.
 */
const bulkUpdateResult = {
  type: 'object',
  additionalProperties: false,
  required: ['done_count', 'failed_count', 'reports', 'reports_available_till', 'errors'],
  properties: {
    done_count: { type: 'integer', minimum: 0 },
    failed_count: { type: 'integer', minimum: 0 },
    reports: { type: 'array', items: { type: 'string' } },
    reports_available_till: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['message', 'details', 'key'],
        properties: {
          message: { type: 'string' },
          details: { type: 'string' },
          key: { type: 'string' },
          source_id: { type: 'string' },
          code: { type: 'string' },
        },
      },
    },
  },
};
export const BULK_UPDATE_TYPES = [
  'CUSTOMERS.BULK_UPDATE',
  'CUSTOMERS.METADATA_UPDATE',
  'PRODUCTS.BULK_UPDATE',
  'PRODUCTS.METADATA_UPDATE',
  'VOUCHERS.BULK_UPDATE',
  'VOUCHERS.METADATA_UPDATE',
];
let bulkUpdateValidator: ValidateFunction | undefined;

/** A bulk update's `result` against the shape of the reference's examples. */
export function assertBulkUpdateResult(result: Json): void {
  bulkUpdateValidator ??= ajv.compile(bulkUpdateResult);
  check(bulkUpdateValidator, result, 'bulk update result');
}

/** The reference's example of GET /v1/async-actions/{id} for an action type. */
export function asyncActionExample(type: string): { result: Json } {
  const examples = (
    referenceSpec.paths['/v1/async-actions/{asyncActionId}']?.get?.responses?.['200']?.content?.[
      'application/json'
    ] as { examples?: Record<string, { value: { result: Json } }> }
  )?.examples;
  const example = examples?.[type];
  assert.ok(example, `The reference has no example of ${type}`);
  return example.value;
}

/**
 * GET /v1/async-actions/{id} against the reference. Its `result` is a oneOf of 22 shapes with
 * no required fields, which any object matches several times over; so the action is checked
 * without `result` by the path's schema, and `result` by its own type's component schema (a
 * bulk update's by the shape of the reference's examples).
 */
export function assertAsyncActionMatchesReference(body: { type: string; result?: unknown }): void {
  const { result, ...rest } = body;
  assertMatchesReference('GET', '/v1/async-actions/{asyncActionId}', 200, rest);
  if (result === undefined) return;
  if (BULK_UPDATE_TYPES.includes(body.type)) return assertBulkUpdateResult(result);
  const name = RESULT_SCHEMA[body.type];
  assert.ok(name, `no result schema for ${body.type}`);
  assertMatchesSchema(name, result);
}

/**
 * The reference's refusals of a request body by its request schema (whole reference), as
 * ajv's messages: empty when the schema accepts it, undefined when the operation has no JSON
 * request schema. The mutation sweep uses it to tell garbage we store from leniency.
 */
export function referenceRequestErrors(method: string, path: string, body: Json): string[] | undefined {
  const operation = fullReference().paths[path]?.[method.toLowerCase()] as
    | { requestBody?: { content?: Record<string, { schema?: Json }> } }
    | undefined;
  if (!operation?.requestBody?.content?.['application/json']?.schema) return undefined;
  const pointer = `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
  const validate = compile(pointer, 'full');
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
