import { ArraySchema, ObjectSchema, Schema, ValidationError, type ISchema, type Reference } from 'yup';

/**
 * Whether yup's strict validation of `value` against `schema` passes, answered without yup's
 * machinery (README "Hot paths"). yup runs each test through a context, a callback chain and a
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
  return result === true || (Boolean(result) && result !== FAILED && !ValidationError.isError(result) && typeof (result as { then?: unknown }).then !== 'function');
}

/** What checking a schema node takes, worked out once per schema object. */
interface Plan {
  /** Neither lazy nor conditional: the schema is itself whatever the value. */
  fixed: boolean;
  tests: Test[];
  /** For a fixed schema, whether an absent value passes (its tests cannot see the value's siblings). */
  absent?: boolean;
}

const plans = new WeakMap<object, Plan>();

function planOf(schema: AnySchema): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    const known = schema instanceof Schema && KNOWN_TYPES.has(schema.type);
    const { internalTests, tests, conditions } = schema as unknown as Internals;
    plan = known
      ? { fixed: conditions.length === 0, tests: [...Object.values(internalTests).filter((test): test is Test => test !== undefined), ...tests] }
      : { fixed: false, tests: [] };
    plans.set(schema, plan);
  }
  return plan;
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
  // An object's own tests already see it first in `from`, as its fields do (yup's ObjectSchema).
  const seen = schema instanceof ObjectSchema ? [{ schema, value }, ...from] : from;
  const ctx = new TestContext(schema, value, parent, seen);
  for (const test of plan.tests) if (!testPasses(test, value, ctx)) return false;
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
