import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Validates answers against the reference's response schemas
 * (shared/reference/voucherify-openapi-subset.json, OpenAPI 3.0: `nullable` is honoured).
 */
const SPEC_FILE = new URL('../../../shared/reference/voucherify-openapi-subset.json', import.meta.url);
const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8'));

const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema(spec, 'subset');

const compiled = new Map<string, ValidateFunction>();

function validatorFor(method: string, path: string, status: number): ValidateFunction {
  const key = `${method} ${path} ${status}`;
  let validate = compiled.get(key);
  if (validate) return validate;
  const response = spec.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
  const schema = response?.content?.['application/json']?.schema;
  assert.ok(schema, `The reference has no JSON schema for ${key}`);
  validate = ajv.compile({ $ref: `subset#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema` });
  compiled.set(key, validate);
  return validate;
}

/** Asserts that `body` is a valid answer of the reference's operation (path as templated there). */
export function assertMatchesReference(method: string, path: string, status: number, body: unknown): void {
  const validate = validatorFor(method, path, status);
  if (!validate(body)) {
    assert.fail(`Answer does not match the reference schema of ${method} ${path} ${status}:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
  }
}
