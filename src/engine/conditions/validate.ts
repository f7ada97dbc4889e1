import { parseIsoDate } from '../../lib/dates.js';
import { FAMILIES_OF_KIND, isOperator, OPERATOR_SPECS, type FieldKind, type Operator } from './operators.js';
import type { Condition, FieldCatalog, Filter, Junction } from './types.js';

export type FilterValidation =
  | {
      ok: true;
      filter: Filter /** the filter as given, with the junction in lower case */;
      json: Record<string, unknown>;
    }
  | { ok: false; errors: string[] };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNonNegativeInteger = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

type ScalarCheck = { test: (v: unknown) => boolean; noun: string };

/** Which equality operands a field kind takes. */
const SCALARS_OF_KIND: Record<FieldKind, ScalarCheck> = {
  string: { test: (v) => typeof v === 'string', noun: 'strings' },
  string_array: { test: (v) => typeof v === 'string', noun: 'strings' },
  date: { test: (v) => typeof v === 'string', noun: 'strings' },
  number: { test: (v) => typeof v === 'number' && Number.isFinite(v), noun: 'numbers' },
  any: {
    test: (v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)),
    noun: 'strings, numbers or booleans',
  },
};

const exactlyOne = (operands: unknown[], test: (v: unknown) => boolean): boolean =>
  operands.length === 1 && test(operands[0]);

const oneOrMore = (operands: unknown[], test: (v: unknown) => boolean): boolean =>
  operands.length > 0 && operands.every(test);

/** The problem with an operator's operands, or undefined if they fit. */
function operandProblem(operator: Operator, kind: FieldKind, operands: unknown): string | undefined {
  if (!Array.isArray(operands)) return 'must be an array';
  const scalar = SCALARS_OF_KIND[kind];
  switch (OPERATOR_SPECS[operator].operands) {
    case 'ignored':
      return undefined;
    case 'scalars':
      return oneOrMore(operands, scalar.test) ? undefined : `must be an array of one or more ${scalar.noun}`;
    case 'scalar':
      return exactlyOne(operands, scalar.test) ? undefined : `must be an array of exactly one of: ${scalar.noun}`;
    case 'strings':
      return oneOrMore(operands, (v) => typeof v === 'string' && v !== '')
        ? undefined
        : 'must be an array of one or more non-empty strings';
    case 'number':
      return exactlyOne(operands, (v) => typeof v === 'number' && Number.isFinite(v))
        ? undefined
        : 'must be an array of exactly one number';
    case 'date':
      return exactlyOne(operands, (v) => parseIsoDate(v) !== null)
        ? undefined
        : 'must be an array of exactly one ISO 8601 date or date-time';
    case 'days':
      return exactlyOne(operands, isNonNegativeInteger)
        ? undefined
        : 'must be an array of exactly one non-negative integer (a number of days)';
    case 'count':
      return exactlyOne(operands, isNonNegativeInteger)
        ? undefined
        : 'must be an array of exactly one non-negative integer';
  }
}

/** One operator of a field: the condition, or what is wrong with it. */
function validateOperator(
  field: string,
  kind: FieldKind,
  operator: string,
  operands: unknown,
  at: string,
): Condition | string {
  if (!isOperator(operator)) return `${at} is not a known operator`;
  if (!FAMILIES_OF_KIND[kind].has(OPERATOR_SPECS[operator].family)) {
    return `${at} does not apply to ${field} (a ${kind.replace('_', ' ')} field)`;
  }
  const problem = operandProblem(operator, kind, operands);
  return problem ? `${at} ${problem}` : { field, operator, operands: operands as unknown[] };
}

function validateField(
  field: string,
  value: unknown,
  catalog: FieldCatalog,
  path: string,
  errors: string[],
): Condition[] {
  const at = `${path}.${field}`;
  const fail = (message: string): Condition[] => {
    errors.push(message);
    return [];
  };
  const { kind, problem } = catalog.lookup(field);
  if (problem) return fail(`${at}: the field name ${problem}`);
  if (!kind) return fail(`${at} is not a known field; allowed: ${catalog.description}`);
  if (!isPlainObject(value) || !isPlainObject(value.conditions)) {
    return fail(`${at} must be an object {"conditions": {<operator>: [...]}}`);
  }
  const extra = Object.keys(value).filter((key) => key !== 'conditions');
  if (extra.length > 0) errors.push(`${at} takes only "conditions", not: ${extra.join(', ')}`);
  const entries = Object.entries(value.conditions);
  if (entries.length === 0) errors.push(`${at}.conditions must name at least one operator`);
  const conditions: Condition[] = [];
  for (const [operator, operands] of entries) {
    const result = validateOperator(field, kind, operator, operands, `${at}.conditions.${operator}`);
    if (typeof result === 'string') errors.push(result);
    else conditions.push(result);
  }
  return conditions;
}

function parseJunction(value: unknown): Junction | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return lower === 'and' || lower === 'or' ? lower : undefined;
}

/**
 * Checks a filter object `{junction, <field>: {conditions: {<operator>: [operands]}}}` against
 * a field catalog. Reports every unknown field and operator, every operator that does not
 * apply to its field's kind, and every operand of the wrong kind, each with its path.
 */
export function validateFilter(input: unknown, catalog: FieldCatalog, path = 'filter'): FilterValidation {
  if (!isPlainObject(input)) return { ok: false, errors: [`${path} must be an object`] };
  const errors: string[] = [];
  const junction = parseJunction(input.junction);
  if (!junction) errors.push(`${path}.junction is required and must be "and" or "or"`);
  const conditions: Condition[] = [];
  const fields = Object.entries(input).filter(([key]) => key !== 'junction');
  for (const [field, value] of fields) conditions.push(...validateField(field, value, catalog, path, errors));
  if (fields.length === 0) errors.push(`${path} must name at least one field condition`);
  if (errors.length > 0 || !junction) return { ok: false, errors };
  return { ok: true, filter: { junction, conditions }, json: { ...input, junction } };
}
