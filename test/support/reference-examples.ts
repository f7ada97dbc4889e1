import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/**
 * The recorded answers (and requests) of the real API in the whole reference
 * (reference/voucherify-openapi.json): `examples` by name, or the one `example`.
 */
type Content = { example?: unknown; examples?: Record<string, { value?: unknown; $ref?: string }> };
type Operation = {
  requestBody?: { content?: Record<string, Content> };
  responses?: Record<string, { content?: Record<string, Content> }>;
};

type Reference = {
  paths: Record<string, Record<string, Operation>>;
  components: { examples?: Record<string, { value?: unknown }> };
};
let whole: Reference | undefined;
const load = (): Reference =>
  (whole ??= JSON.parse(
    readFileSync(new URL('../../reference/voucherify-openapi.json', import.meta.url), 'utf8'),
  ) as Reference);
const reference = () => load().paths;
/** An example given inline or by `$ref` to the reference's shared examples. */
const valueOf = (example: { value?: unknown; $ref?: string }): unknown =>
  example.$ref ? load().components.examples?.[example.$ref.split('/').pop() ?? '']?.value : example.value;

const named = (content: Content | undefined): Record<string, unknown> => {
  if (!content) return {};
  if (content.examples)
    return Object.fromEntries(Object.entries(content.examples).map(([name, e]) => [name, valueOf(e)]));
  return content.example === undefined ? {} : { example: content.example };
};

/** An operation as `METHOD /path/{template}`, the reference's own spelling. */
const operation = (op: string): Operation | undefined => {
  const [method = '', path = ''] = op.split(' ');
  return reference()[path]?.[method.toLowerCase()];
};

/** Every operation of the reference whose JSON answer (any status) has an example: `op -> status`. */
export function operationsWithExamples(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, methods] of Object.entries(reference())) {
    for (const [method, op] of Object.entries(methods)) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        if (
          Object.keys(named(response?.content?.['application/json'])).length > 0 &&
          !found.has(`${method.toUpperCase()} ${path}`)
        )
          found.set(`${method.toUpperCase()} ${path}`, status);
      }
    }
  }
  return found;
}

/** The reference's recorded answer of an operation: the named example, or the first. */
export function responseExample(op: string, status: string, name?: string): unknown {
  const examples = named(operation(op)?.responses?.[status]?.content?.['application/json']);
  const key = name ?? Object.keys(examples)[0];
  assert.ok(key !== undefined && key in examples, `the reference has no example ${name ?? ''} of ${op} ${status}`);
  return structuredClone(examples[key]);
}

/** The reference's example request body of an operation (named, or the first). */
export function requestExample(op: string, name?: string): Record<string, unknown> {
  const examples = named(operation(op)?.requestBody?.content?.['application/json']);
  const key = name ?? Object.keys(examples)[0];
  assert.ok(key !== undefined && key in examples, `the reference has no request example ${name ?? ''} of ${op}`);
  return structuredClone(examples[key]) as Record<string, unknown>;
}
