import { ArraySchema, ObjectSchema, Schema, type ISchema } from 'yup';

/**
 * Inputs for any yup schema, made from the schema itself (its `describe()` and its fields):
 * valid ones, found by trying candidates field by field where yup itself judges each in its
 * parent (so `when` conditions and lazy fields see their siblings), and every way of getting
 * one field of a valid one wrong. Used to prove that the validation door's fast path answers
 * as yup does on every schema the app has (test/lib/validation-door.test.ts).
 */
type AnySchema = ISchema<unknown>;
type Fields = Record<string, unknown>;

interface TestDescription {
  name?: string;
  params?: Record<string, unknown>;
}

interface Description {
  type: string;
  oneOf?: unknown[];
  tests?: TestDescription[];
}

/** Texts that satisfy the formats the schemas use (dates, emails, URLs, codes, the words of lists kept outside yup). */
const TEXTS = [
  'x',
  'A-1',
  '2024-01-01T00:00:00.000Z',
  '2024-01-01',
  'ann@example.com',
  'https://example.com/hook',
  'EUR',
  'PERCENT',
  'AMOUNT',
  '1',
  '10:00',
  'camp_1',
  'client_credentials',
  'api',
  'business_validation_rule.assignment.created',
];

/** Values a client gets wrong: each replaces a field of a valid input in turn. */
export const WRONG: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'LOST',
  '2024-02-30',
  0,
  -1,
  1.5,
  1e20,
  Number.NaN,
  true,
  {},
  [],
  [{}],
  [null],
  'A'.repeat(300),
];

const MAX_DEPTH = 6;

const passes = (schema: AnySchema, value: unknown): boolean =>
  (schema as Schema<unknown>).isValidSync(value, { strict: true });

function passesAt(schema: ObjectSchema<Fields>, key: string, value: Fields): boolean {
  try {
    schema.validateSyncAt(key, value, { strict: true });
    return true;
  } catch {
    return false;
  }
}

/** The schema a lazy or conditional one stands for, given the value and its parent. */
const resolved = (schema: unknown, value: unknown, parent: unknown): AnySchema =>
  (schema as Schema<unknown>).resolve({ value, parent, context: undefined }) as AnySchema;

const numberParam = (tests: TestDescription[], name: string, key = name): number | undefined => {
  const found = tests.find((test) => test.name === name)?.params?.[key];
  return typeof found === 'number' ? found : undefined;
};

function leafCandidates(schema: AnySchema): unknown[] {
  const { type, oneOf = [], tests = [] } = schema.describe() as Description;
  if (oneOf.length > 0) return oneOf.filter((value) => value != null);
  const min = numberParam(tests, 'min');
  const max = numberParam(tests, 'max');
  const length = numberParam(tests, 'length');
  if (type === 'string')
    return [...[length, min].filter((n) => n !== undefined).map((n) => 'x'.repeat(n as number)), ...TEXTS];
  if (type === 'number')
    return [min, max, min === undefined ? undefined : min + 1, 1, 0, 10, 100, 5000].filter((n) => n !== undefined);
  if (type === 'boolean') return [true, false];
  if (type === 'date') return [new Date('2024-01-01T00:00:00.000Z')];
  return [...TEXTS, 1, true, { a: 1 }, ['x']];
}

const PROBES: unknown[] = [undefined, {}, [], 'x', 1, true];

/** Candidate values for `schema`, the likeliest to pass first. */
export function candidates(schema: AnySchema, parent: unknown, depth = 0): unknown[] {
  if (schema instanceof ObjectSchema) return objectCandidates(schema as ObjectSchema<Fields>, depth);
  if (schema instanceof ArraySchema) return arrayCandidates(schema, depth);
  if (schema instanceof Schema && (schema as unknown as { conditions: unknown[] }).conditions.length === 0)
    return leafCandidates(schema);
  const seen = new Set<AnySchema>();
  const found: unknown[] = [];
  for (const probe of PROBES) {
    const inner = resolved(schema, probe, parent);
    if (seen.has(inner) || !(inner instanceof Schema) || depth > MAX_DEPTH) continue;
    seen.add(inner);
    found.push(...candidates(inner, parent, depth + 1));
  }
  return found;
}

function arrayCandidates(schema: ArraySchema<unknown[] | undefined, unknown>, depth: number): unknown[] {
  const inner = schema.innerType as AnySchema | undefined;
  if (!inner || depth > MAX_DEPTH) return [[]];
  const elements = candidates(inner, undefined, depth + 1).filter((value) => passes(inner, value));
  const first = elements[0] ?? 'x';
  return [[first], [first, elements[1] ?? first], ...elements.slice(1).map((element) => [element]), []];
}

const without = (value: Fields, key: string): Fields =>
  Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

/**
 * Every field given the first candidate yup accepts in place; then the required ones alone,
 * and with each other field in turn (for exactly-one-of rules); then each field left out.
 */
function objectCandidates(schema: ObjectSchema<Fields>, depth: number): unknown[] {
  if (depth > MAX_DEPTH) return [{}];
  const full: Fields = {};
  for (const key of Object.keys(schema.fields)) {
    const field = schema.fields[key];
    for (const candidate of candidates(field as AnySchema, full, depth + 1)) {
      if (passesAt(schema, key, { ...full, [key]: candidate })) {
        full[key] = candidate;
        break;
      }
    }
  }
  const required = Object.fromEntries(
    Object.entries(full).filter(([key]) => !passesAt(schema, key, without(full, key))),
  );
  const keys = Object.keys(full);
  return [
    full,
    required,
    ...keys.map((key) => ({ ...required, [key]: full[key] })),
    ...keys.map((key) => without(full, key)),
  ];
}

/** The valid inputs found for `schema` (none when no candidate passes as a whole). */
export function validSamples(schema: AnySchema): unknown[] {
  const unique = new Map<string, unknown>();
  for (const value of candidates(schema, undefined))
    if (passes(schema, value)) unique.set(JSON.stringify(value) ?? 'undefined', value);
  return [...unique.values()];
}

/** Just past each bound the schema describes: a number or a text one too big or too small. */
function boundaries(schema: AnySchema): unknown[] {
  if (!(schema instanceof Schema)) return [];
  const { type, tests = [] } = schema.describe() as Description;
  const min = numberParam(tests, 'min');
  const max = numberParam(tests, 'max');
  if (type === 'string')
    return [max === undefined ? undefined : 'x'.repeat(max + 1), min ? 'x'.repeat(min - 1) : undefined];
  if (type === 'number') return [max === undefined ? undefined : max + 1, min === undefined ? undefined : min - 1];
  if (type === 'array') return [max === undefined ? undefined : Array(max + 1).fill(null)];
  return [];
}

/** Every variant of a valid `value` with one field (at any depth) replaced, dropped, added or pushed past its bounds. */
export function* mutations(schema: AnySchema, value: unknown, depth = 0): Generator<unknown> {
  if (depth > MAX_DEPTH) return;
  const node = resolved(schema, value, undefined);
  if (node instanceof ArraySchema && Array.isArray(value)) {
    const inner = node.innerType as AnySchema | undefined;
    for (let i = 0; i < value.length; i++)
      for (const wrong of [...WRONG, ...(inner ? mutations(inner, value[i], depth + 1) : [])])
        yield value.map((v, j) => (j === i ? wrong : v));
    yield [...value, ...value];
    return;
  }
  if (!(node instanceof ObjectSchema) || typeof value !== 'object' || value === null) return;
  const record = value as Fields;
  for (const key of Object.keys(node.fields)) {
    const field = resolved(node.fields[key], record[key], record);
    const wrongs = [...WRONG, ...boundaries(field).filter((v) => v !== undefined)];
    for (const wrong of [...wrongs, ...mutations(field, record[key], depth + 1)]) yield { ...record, [key]: wrong };
    if (key in record) yield without(record, key);
  }
  yield { ...record, unknown_field: 1 };
}

/** Variants of a valid `value` with several fields wrong at once, whose messages come in yup's order. */
export function* severalWrong(schema: AnySchema, value: unknown): Generator<unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const keys = Object.keys(value);
  for (const wrong of WRONG) yield Object.fromEntries(keys.map((key) => [key, wrong]));
  for (const [index, key] of keys.entries()) {
    const next = keys[(index + 1) % keys.length] as string;
    for (const inner of mutations(schema, value))
      yield { ...(inner as Fields), [next]: 1e20, [key]: (inner as Fields)[key] ?? null };
  }
}
