import type { FieldKind, Operator } from './operators.js';

export type Junction = 'and' | 'or';

/** An equality operand: conditions compare strings with strings, numbers with numbers. */
export type Scalar = string | number | boolean;

/** One operator applied to one field, with its operands as given. */
export interface Condition {
  field: string;
  operator: Operator;
  operands: unknown[];
}

/**
 * A validated filter. The junction joins every condition, across fields and within one
 * field alike: `and` needs all of them, `or` any of them.
 */
export interface Filter {
  junction: Junction;
  conditions: Condition[];
}

export interface CatalogLookup {
  /** What the field holds; absent when the field is unknown or its name is refused. */
  kind?: FieldKind;
  /** Why a name under a known prefix is refused. */
  problem?: string;
}

/** The fields a filter may name: fixed names, and prefixes such as `metadata.` for open keys. */
export interface FieldCatalog {
  lookup(field: string): CatalogLookup;
  /** The allowed fields, as an error message lists them. */
  readonly description: string;
}

/**
 * Why a key under a prefix is refused, or undefined if it is fine. Keys travel inside a
 * quoted JSON path in SQL, where a double quote or a backslash cannot be written.
 */
const prefixKeyProblem = (key: string): string | undefined => {
  if (key === '') return 'needs a key after the prefix';
  if (/["\\]/.test(key)) return 'must not contain double quotes or backslashes';
  return undefined;
};

/** Builds a FieldCatalog from fixed field names and open prefixes (`{'metadata.': 'any'}`). */
export function fieldCatalog(
  fields: Record<string, FieldKind>,
  prefixes: Record<string, FieldKind> = {},
): FieldCatalog {
  const description = [...Object.keys(fields), ...Object.keys(prefixes).map((p) => `${p}<key>`)].join(', ');
  const lookup = (field: string): CatalogLookup => {
    if (Object.hasOwn(fields, field)) return { kind: fields[field] };
    for (const [prefix, kind] of Object.entries(prefixes)) {
      if (!field.startsWith(prefix)) continue;
      const problem = prefixKeyProblem(field.slice(prefix.length));
      return problem ? { problem } : { kind };
    }
    return {};
  };
  return { description, lookup };
}
