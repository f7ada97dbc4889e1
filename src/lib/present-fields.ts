import { ArraySchema, lazy, ObjectSchema, Schema, type ISchema } from 'yup';
import { isPlainObject } from './fields.js';

/**
 * yup checks every field of an object schema, given or not: about 1.5 us a field, so an
 * import order naming 3 of its 14 item fields and 2 of its 11 customer fields spends most of
 * its ~135 us of validation on fields it does not have. The same schema with each object
 * narrowed (yup's `pick`) to the fields the value has checks the same thing for strict
 * validation, because a field that passes when absent (checked once, here) cannot fail when
 * absent: the narrowed schema keeps every other field, its object-level tests (noUnknown
 * compares the value's keys with all the fields it has, which are exactly the original's
 * among the value's keys), its fields' order and the whole schema's order of messages.
 *
 * A field always stays when it fails absent (required) or when whether it passes may depend
 * on its siblings (a `when` condition, a lazy schema, a reference). Field tests that read
 * `this.parent` are not detected: a schema with one must not come here.
 */
type AnySchema = ISchema<unknown>;

/** yup's private comparator of an object's messages. */
interface Sorted {
  _sortErrors: unknown;
}

/** Narrowed variants kept per object schema (one per set of fields seen); others are made per value. */
const MAX_VARIANTS = 64;

function passesWhenAbsent(field: unknown): boolean {
  if (!(field instanceof Schema)) return false;
  if (((field as unknown as { conditions?: unknown[] }).conditions ?? []).length > 0) return false;
  try {
    field.validateSync(undefined, { strict: true, abortEarly: false });
    return true;
  } catch {
    return false;
  }
}

function narrowObject(schema: ObjectSchema<Record<string, unknown>>): AnySchema {
  const keys = Object.keys(schema.fields);
  const fields = Object.fromEntries(keys.map((key) => [key, narrowed(schema.fields[key] as AnySchema)]));
  const whole = schema.shape(fields);
  const kept = new Set(keys.filter((key) => !passesWhenAbsent(schema.fields[key])));
  const variants = new Map<string, AnySchema>();
  return lazy((value: unknown) => {
    if (!isPlainObject(value)) return whole;
    const present = keys.filter((key) => kept.has(key) || Object.hasOwn(value as object, key));
    const id = present.join(',');
    let variant = variants.get(id);
    if (!variant) {
      variant = whole.pick(present) as AnySchema;
      // yup sorts an object's messages by the first of its field names that each message's
      // path contains (a substring match: "items[0].sku.override" sorts under "id"), so the
      // narrowed schema sorts with the whole schema's names.
      (variant as unknown as Sorted)._sortErrors = (whole as unknown as Sorted)._sortErrors;
      if (variants.size < MAX_VARIANTS) variants.set(id, variant);
    }
    return variant;
  }) as unknown as AnySchema;
}

function narrowed(schema: AnySchema): AnySchema {
  if (schema instanceof ObjectSchema) return narrowObject(schema as ObjectSchema<Record<string, unknown>>);
  if (schema instanceof ArraySchema && schema.innerType)
    return schema.of(narrowed(schema.innerType as AnySchema)) as AnySchema;
  return schema;
}

const cache = new WeakMap<object, AnySchema>();

/** `schema` with every object narrowed to the fields a value has (built once per schema). */
export function presentFieldsSchema<T>(schema: ISchema<T>): ISchema<T> {
  let fast = cache.get(schema);
  if (!fast) cache.set(schema, (fast = narrowed(schema as AnySchema)));
  return fast as ISchema<T>;
}
