import { validateFilter, type FieldCatalog } from '../conditions/index.js';
import { parseLogic } from './logic.js';
import {
  FILTER_NAMES,
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  ITEM_MODES,
  NAME_ALIASES,
  OPERATOR_ALIASES,
  RULE_FIELDS,
  SUPPORTED_NAMES,
  fieldOf,
  type FilterName,
} from './names.js';
import type { RuleCondition, RuleTree, Target, TargetObject } from './types.js';

/** At most this many numbered conditions on one level, and this many targets in one item condition. */
export const MAX_CONDITIONS = 50;
export const MAX_TARGETS = 100;
export const MAX_MESSAGE = 1024;
export const MAX_PROPERTY = 255;

export type RulesParse = { ok: true; tree: RuleTree; json: Record<string, unknown> } | { ok: false; errors: string[] };

type Level = 'rule' | 'item';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const TARGET_OBJECTS: readonly TargetObject[] = ['product', 'sku', 'products_collection'];

/** `error.message` of a condition or a rule: absent, null, or text. */
export function messageOf(value: unknown, at: string, errors: string[]): string | null {
  if (value === undefined || value === null) return null;
  const message = isPlainObject(value) ? value.message : undefined;
  if (!isPlainObject(value) || (message != null && (typeof message !== 'string' || message.length > MAX_MESSAGE))) {
    errors.push(`${at} must be an object {"message": <text of at most ${MAX_MESSAGE} characters>}`);
    return null;
  }
  return typeof message === 'string' ? message : null;
}

/** The targets of an item condition: `{"$is" | "$in": [{"object": "product", "id": ...}, ...]}`. */
function targetsOf(conditions: unknown, at: string, errors: string[]): Target[] {
  const entries = isPlainObject(conditions) ? Object.entries(conditions) : [];
  const [operator, operands] = entries[0] ?? [];
  if (entries.length !== 1 || (operator !== '$is' && operator !== '$in') || !Array.isArray(operands)) {
    errors.push(
      `${at} must be {"$is": [<targets>]} (or "$in"), each target {"object": "product" | "sku" | "products_collection", "id": ...}`,
    );
    return [];
  }
  if (operands.length === 0 || operands.length > MAX_TARGETS)
    errors.push(`${at}.${operator} must hold 1 to ${MAX_TARGETS} targets`);
  return operands.flatMap((target, i) => {
    const object = isPlainObject(target) ? (target.object ?? 'product') : undefined;
    if (
      !isPlainObject(target) ||
      typeof target.id !== 'string' ||
      target.id === '' ||
      !TARGET_OBJECTS.includes(object as TargetObject)
    ) {
      errors.push(
        `${at}.${operator}.${i} must be {"object": "product" | "sku" | "products_collection", "id": <non-empty id>}`,
      );
      return [];
    }
    return [{ object: object as TargetObject, id: target.id }];
  });
}

/** The conditions object with the reference's own operator spellings turned into the engine's. */
const normalized = (conditions: unknown): unknown =>
  isPlainObject(conditions)
    ? Object.fromEntries(Object.entries(conditions).map(([op, v]) => [OPERATOR_ALIASES[op] ?? op, v]))
    : conditions;

function filterCondition(
  node: Record<string, unknown>,
  name: string,
  spec: FilterName,
  catalog: FieldCatalog,
  at: string,
  errors: string[],
): RuleCondition | undefined {
  const property = node.property ?? null;
  if (spec.property && (typeof property !== 'string' || property === '' || property.length > MAX_PROPERTY)) {
    errors.push(`${at}.property is required for ${name}: the metadata key, at most ${MAX_PROPERTY} characters`);
    return undefined;
  }
  if (!spec.property && property !== null) errors.push(`${at}.property applies only to metadata conditions`);
  const field = fieldOf(name, spec.property ? (property as string) : null);
  const checked = validateFilter(
    { junction: 'and', [field]: { conditions: normalized(node.conditions) } },
    catalog,
    at,
  );
  if (!checked.ok) {
    errors.push(...checked.errors);
    return undefined;
  }
  const message = messageOf(node.error, `${at}.error`, errors);
  return { kind: 'filter', category: spec.category, name, filter: checked.filter, eachItem: spec.eachItem, message };
}

function condition(
  node: unknown,
  level: Level,
  at: string,
  errors: string[],
): { condition?: RuleCondition; json: unknown } {
  if (!isPlainObject(node) || typeof node.name !== 'string') {
    errors.push(`${at} must be an object with a "name"`);
    return { json: node };
  }
  // An alias is judged as the name it stands for; the stored JSON keeps the name as given.
  const name =
    level === 'rule' && Object.hasOwn(NAME_ALIASES, node.name) ? (NAME_ALIASES[node.name] as string) : node.name;
  const names = level === 'rule' ? FILTER_NAMES : ITEM_FIELD_NAMES;
  const nested = node.rules ?? {};
  const mode = level === 'rule' ? ITEM_MODES[name as keyof typeof ITEM_MODES] : undefined;
  if (mode) {
    const targets = targetsOf(node.conditions, `${at}.conditions`, errors);
    const inner =
      isPlainObject(nested) && Object.keys(nested).length === 0
        ? undefined
        : parseTree(nested, 'item', `${at}.rules`, errors);
    const message = messageOf(node.error, `${at}.error`, errors);
    const json = { ...node, property: null, rules: inner?.json ?? {} };
    return {
      condition: { kind: 'items', category: 'order', name, mode, targets, itemRules: inner?.tree ?? null, message },
      json,
    };
  }
  const spec = Object.hasOwn(names, name) ? names[name] : undefined;
  if (!spec) {
    const supported = level === 'rule' ? SUPPORTED_NAMES : Object.keys(ITEM_FIELD_NAMES);
    errors.push(
      `${at}.name ${JSON.stringify(name).slice(0, 80)} is not supported${level === 'item' ? ' inside an item condition' : ''}; supported: ${supported.join(', ')}`,
    );
    return { json: node };
  }
  if (!isPlainObject(nested) || Object.keys(nested).length > 0)
    errors.push(`${at}.rules must be empty: only order.items.every, any and none take nested rules`);
  const parsed = filterCondition(node, name, spec, level === 'rule' ? RULE_FIELDS : ITEM_FIELDS, at, errors);
  return { condition: parsed, json: { ...node, property: node.property ?? null, rules: {} } };
}

function parseTree(
  input: unknown,
  level: Level,
  at: string,
  errors: string[],
): { tree: RuleTree; json: Record<string, unknown> } | undefined {
  if (!isPlainObject(input)) {
    errors.push(`${at} must be an object {"1": {...}, "2": {...}, "logic": "1 and 2"}`);
    return undefined;
  }
  const keys = Object.keys(input).filter((key) => key !== 'logic');
  const bad = keys.filter((key) => !/^[1-9]\d{0,2}$/.test(key));
  if (bad.length > 0)
    errors.push(`${at} takes only numbered conditions ("1", "2", ...) and "logic", not: ${bad.slice(0, 5).join(', ')}`);
  if (keys.length > MAX_CONDITIONS) errors.push(`${at} must hold at most ${MAX_CONDITIONS} conditions`);
  if (input.logic != null && typeof input.logic !== 'string') errors.push(`${at}.logic must be a string`);
  const numbered = keys.filter((key) => !bad.includes(key)).sort((a, b) => Number(a) - Number(b));
  const given = typeof input.logic === 'string' ? input.logic : undefined;
  const logic = parseLogic(given, numbered);
  if (typeof logic === 'string') errors.push(`${at}.logic ${logic}`);
  const conditions = new Map<string, RuleCondition>();
  const json: Record<string, unknown> = {};
  for (const key of numbered.slice(0, MAX_CONDITIONS)) {
    const parsed = condition(input[key], level, `${at}.${key}`, errors);
    if (parsed.condition) conditions.set(key, parsed.condition);
    json[key] = parsed.json;
  }
  json.logic = given ?? numbered.join(' and ');
  return typeof logic === 'string' ? undefined : { tree: { conditions, logic }, json };
}

/**
 * Checks a rule's `rules` tree (absent: no condition) and returns it parsed, with its JSON as
 * stored and answered (each condition with `property` and `rules`, as the reference answers
 * them), or every problem with its path.
 */
export function parseRules(input: unknown): RulesParse {
  const errors: string[] = [];
  const parsed = parseTree(input ?? {}, 'rule', 'rules', errors);
  return parsed && errors.length === 0 ? { ok: true, tree: parsed.tree, json: parsed.json } : { ok: false, errors };
}
