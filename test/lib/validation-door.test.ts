import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSchema, ValidationError, type ISchema, type Schema } from 'yup';
import { AppError } from '../../src/lib/errors.js';
import { passesStrict } from '../../src/lib/strict-pass.js';
import { parse, type Where } from '../../src/lib/validate.js';
import { mutations, severalWrong, validSamples, WRONG } from '../support/schema-samples.js';

type AnySchema = ISchema<unknown>;
type Outcome = { value: unknown } | { details: string };

const root = join(import.meta.dirname, '../..');

/** Every yup schema that a `*.schemas.ts` file under src/modules exports, named by file and export. */
async function appSchemas(): Promise<[string, AnySchema][]> {
  const dir = join(root, 'src/modules');
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((file) => file.endsWith('.schemas.ts'));
  const found: [string, AnySchema][] = [];
  for (const file of files.sort()) {
    const exports = (await import(join(dir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports))
      if (isSchema(value)) found.push([`${file} ${name}`, value as AnySchema]);
  }
  return found;
}

/** yup alone, as the door would run it with no fast path and no present-fields narrowing. */
function yupOutcome(schema: AnySchema, input: unknown): Outcome {
  try {
    return { value: (schema as Schema<unknown>).validateSync(input, { strict: true, abortEarly: false }) };
  } catch (error) {
    if (error instanceof ValidationError) return { details: error.errors.join('; ') };
    throw error;
  }
}

function doorOutcome(schema: AnySchema, input: unknown, where: Where): Outcome {
  try {
    return { value: parse(schema as Schema<unknown>, input, where) };
  } catch (error) {
    if (error instanceof AppError) return { details: error.details };
    throw error;
  }
}

const isPlainObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Mutated: the first two valid inputs (every field that could be given, the required ones
 * alone), at most this many variants of each (each field's own wrong values come first).
 */
const VARIANTS_PER_SAMPLE = 400;

function inputsOf(schema: AnySchema, samples: unknown[]): unknown[] {
  const inputs = [...samples, ...WRONG];
  for (const sample of samples.slice(0, 2)) {
    let count = 0;
    for (const variant of mutations(schema, sample)) {
      if (count++ >= VARIANTS_PER_SAMPLE) break;
      inputs.push(variant);
    }
    count = 0;
    for (const variant of severalWrong(schema, sample)) {
      if (count++ >= VARIANTS_PER_SAMPLE) break;
      inputs.push(variant);
    }
  }
  return inputs;
}

/** The strict doors' answers for `input` against yup's own, the fast path's too; the fast path's passes counted. */
function agree(name: string, schema: AnySchema, input: unknown): boolean {
  const expected = yupOutcome(schema, input);
  const shown = `${name}: ${JSON.stringify(input)}`;
  const fast = passesStrict(schema, input);
  assert.equal(fast, 'value' in expected, `fast path: ${shown}`);
  if ((schema as Schema<unknown>).type !== 'object' || isPlainObject(input))
    assert.deepEqual(doorOutcome(schema, input, 'body'), expected, shown);
  assert.deepEqual(doorOutcome(schema, input, 'item'), expected, `item: ${shown}`);
  return fast;
}

describe('the validation door (parse)', () => {
  it('answers as yup alone does, value or every message, for every exported schema on valid inputs and every mutation of them', async () => {
    const schemas = await appSchemas();
    const unsampled: string[] = [];
    let inputs = 0;
    let fastPasses = 0;
    for (const [name, schema] of schemas) {
      const samples = validSamples(schema);
      if (samples.length === 0) unsampled.push(name);
      for (const input of inputsOf(schema, samples)) {
        inputs++;
        if (agree(name, schema, input)) fastPasses++;
      }
    }
    assert.ok(schemas.length > 80, `${schemas.length} schemas`);
    assert.deepEqual(unsampled, []);
    assert.ok(fastPasses > 1000 && inputs > 20_000, `${fastPasses} fast passes in ${inputs} inputs`);
  });

  it('runs on the yup it was written against: pinned exactly, and the one installed', () => {
    const pinned = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies.yup;
    const installed = (
      JSON.parse(readFileSync(join(root, 'node_modules/yup/package.json'), 'utf8')) as { version: string }
    ).version;
    assert.match(pinned ?? '', /^\d+\.\d+\.\d+$/);
    assert.equal(pinned, installed);
  });
});
