import { ArraySchema, ObjectSchema, Schema, ValidationError, type ISchema, type Reference } from 'yup';

/**
 * Whether yup's strict validation of `value` against `schema` passes, answered without yup's
 * machinery (docs/performance.md "Hot paths"). yup runs each test through a context, a callback chain and a
 * path string built per field: ~4 us a field, most of a validation's or an imported order's
 * check. This walks the same schema objects and calls the same test functions (each
 * test's own `OPTIONS.test`, the internal ones too: type, nullability, optionality,
 * oneOf) with a lean context, in the order yup would, and answers true only when every test
 * passed. Anything else, a failed test, a test that throws or answers a promise, a schema
 * kind it does not know, answers false, and the caller runs yup itself for the answer and
 * its messages: yup stays the one validation path; this only tells early that it would pass.
 *
 * Strict validation returns the value it was given, so a pass needs no result of its own.
 */
type AnySchema = ISchema<unknown>;

interface TestConfig {
  name?: string;
  skipAbsent?: boolean;
  test: (this: unknown, value: unknown, ctx: unknown) => unknown;
}

type Test = { OPTIONS?: TestConfig };

/** The parts of yup's schema objects that its own `_validate` reads (private in its types). */
interface Internals {
  internalTests: Record<string, Test | undefined>;
  tests: Test[];
  conditions: unknown[];
  _nodes: string[];
}

interface Frame {
  schema: AnySchema;
  value: unknown;
}

/** yup's `Reference.isRef` (Reference is exported as a type only). */
const isRef = (value: unknown): value is Reference => Boolean((value as { __isYupRef?: boolean } | null)?.__isYupRef);

/** What a test's `createError` hands back here: a failure, never built into a message. */
const FAILED = Object.freeze({ failed: true });

const KNOWN_TYPES = new Set(['mixed', 'string', 'number', 'boolean', 'date', 'object', 'array']);

/**
 * What a test's `this` holds in yup (its createValidation), less the message machinery. A
 * class, not an object literal of closures: one per schema node checked, and no function
 * objects made for it.
 */
class TestContext {
  path = '';
  type: string | undefined;
  readonly originalValue: unknown;

  constructor(
    readonly schema: AnySchema,
    readonly value: unknown,
    readonly parent: unknown,
    readonly from: Frame[],
  ) {
    this.originalValue = value;
  }

  get options(): object {
    return { value: this.value, parent: this.parent, context: undefined, strict: true, from: this.from };
  }

  createError(): object {
    return FAILED;
  }

  resolve(item: unknown): unknown {
    return isRef(item) ? item.getValue(this.value, this.parent as object | undefined, undefined) : item;
  }
}

function testPasses(test: Test, value: unknown, ctx: TestContext): boolean {
  const config = test.OPTIONS;
  if (!config) return false;
  if (config.skipAbsent && value == null) return true;
  ctx.type = config.name;
  let result: unknown;
  try {
    result = config.test.call(ctx, value, ctx);
  } catch {
    return false;
  }
  return (
    result === true ||
    (Boolean(result) &&
      result !== FAILED &&
      !ValidationError.isError(result) &&
      typeof (result as { then?: unknown }).then !== 'function')
  );
}

/**
 * yup's own internal tests, answered here without a context: the type (skipped when absent),
 * null and undefined against the schema's nullability and optionality, oneOf's values.
 */
interface Basics {
  typeCheck: ((value: unknown) => boolean) | null;
  nullable: boolean | null;
  optional: boolean | null;
  /** oneOf's values; null: no oneOf (or one with references, left to its test). */
  oneOf: Set<unknown> | null;
}

/** What checking a schema node takes, worked out once per schema object. */
interface Plan {
  /** Neither lazy nor conditional: the schema is itself whatever the value. */
  fixed: boolean;
  basics: Basics;
  /** The tests left to run with a context: the schema's own, and internal ones not in basics. */
  tests: Test[];
  /** For a fixed schema, whether an absent value passes (its tests cannot see the value's siblings). */
  absent?: boolean;
}

interface SchemaInternals extends Internals {
  _typeCheck(value: unknown): boolean;
  _whitelist: Set<unknown>;
  spec: { nullable: boolean; optional: boolean };
}

const plans = new WeakMap<object, Plan>();

/** Internal tests known by their key and name; anything else stays a test to run. */
function planOf(schema: AnySchema): Plan {
  let plan = plans.get(schema);
  if (plan) return plan;
  const basics: Basics = { typeCheck: null, nullable: null, optional: null, oneOf: null };
  if (!(schema instanceof Schema) || !KNOWN_TYPES.has(schema.type)) {
    plan = { fixed: false, basics, tests: [] };
  } else {
    const inner = schema as unknown as SchemaInternals;
    const tests: Test[] = [];
    for (const [key, test] of Object.entries(inner.internalTests)) {
      if (!test) continue;
      const name = test.OPTIONS?.name;
      if (key === 'typeError' && name === 'typeError') basics.typeCheck = (value) => inner._typeCheck(value);
      else if (key === 'nullable' && name === 'nullable') basics.nullable = inner.spec.nullable;
      else if (key === 'optionality' && name === 'optionality') basics.optional = inner.spec.optional;
      else if (key === 'whiteList' && name === 'oneOf' && ![...inner._whitelist].some(isRef))
        basics.oneOf = new Set(inner._whitelist);
      else tests.push(test);
    }
    plan = { fixed: inner.conditions.length === 0, basics, tests: [...tests, ...inner.tests] };
  }
  plans.set(schema, plan);
  return plan;
}

/** False when one of the basics fails; the node's other tests still run after a pass. */
function basicsPass(basics: Basics, value: unknown): boolean {
  if (value === null) return basics.nullable !== false;
  if (value === undefined) return basics.optional !== false;
  return (!basics.typeCheck || basics.typeCheck(value)) && (!basics.oneOf || basics.oneOf.has(value));
}

function nodePasses(unresolved: AnySchema, value: unknown, parent: unknown, from: Frame[]): boolean {
  const plan = planOf(unresolved);
  if (plan.fixed && value === undefined) return (plan.absent ??= resolvedPasses(unresolved, plan, value, parent, from));
  if (plan.fixed) return resolvedPasses(unresolved, plan, value, parent, from);
  const schema = unresolved.resolve({ value, parent, context: undefined }) as AnySchema;
  if (!(schema instanceof Schema) || !KNOWN_TYPES.has(schema.type)) return false;
  return resolvedPasses(schema, planOf(schema), value, parent, from);
}

function resolvedPasses(schema: AnySchema, plan: Plan, value: unknown, parent: unknown, from: Frame[]): boolean {
  if (!basicsPass(plan.basics, value)) return false;
  // An object's own tests already see it first in `from`, as its fields do (yup's ObjectSchema).
  const seen = schema instanceof ObjectSchema ? [{ schema, value }, ...from] : from;
  if (plan.tests.length > 0) {
    const ctx = new TestContext(schema, value, parent, seen);
    for (const test of plan.tests) if (!testPasses(test, value, ctx)) return false;
  }
  if (schema instanceof ObjectSchema) return fieldsPass(schema, value, seen);
  if (schema instanceof ArraySchema) return elementsPass(schema, value, seen);
  return true;
}

function fieldsPass(schema: ObjectSchema<Record<string, unknown>>, value: unknown, inner: Frame[]): boolean {
  if (!schema.spec.recursive || typeof value !== 'object' || value === null) return true;
  const record = value as Record<string, unknown>;
  for (const key of (schema as unknown as Internals)._nodes) {
    const field = schema.fields[key];
    if (!field || isRef(field)) continue;
    if (!nodePasses(field as AnySchema, record[key], value, inner)) return false;
  }
  return true;
}

function elementsPass(schema: ArraySchema<unknown[] | undefined, unknown>, value: unknown, from: Frame[]): boolean {
  const inner = schema.innerType as AnySchema | undefined;
  if (!schema.spec.recursive || !inner || !Array.isArray(value)) return true;
  for (let i = 0; i < value.length; i++) if (!nodePasses(inner, value[i], value, from)) return false;
  return true;
}

/** True only when `schema.validateSync(value, { strict: true })` would return `value`. */
export const passesStrict = (schema: AnySchema, value: unknown): boolean => nodePasses(schema, value, undefined, []);
