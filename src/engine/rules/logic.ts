import type { Logic } from './types.js';

/** The longest logic expression accepted (a rule has at most MAX_CONDITIONS conditions). */
export const MAX_LOGIC_LENGTH = 1024;

const TOKEN = /\s*(\d+|\(|\)|and\b|or\b)/iy;

function tokenize(text: string): string[] | string {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) return text.slice(at).trim() === '' ? tokens : `unexpected "${text.slice(at).trim().slice(0, 20)}"`;
    tokens.push((m[1] as string).toLowerCase());
  }
  return tokens;
}

/**
 * Parses a rule's `logic` ("1 and (2 or 3)"): numbers name conditions, `and` binds tighter than
 * `or`, parentheses group. Empty or absent logic joins every condition with `and` (no
 * condition at all: always true). Returns the expression, or what is wrong with it.
 */
export function parseLogic(text: string | undefined, keys: readonly string[]): Logic | string {
  if (text === undefined || text.trim() === '') {
    return keys.length === 0 ? { op: 'true' } : { op: 'and', parts: keys.map((key) => ({ op: 'ref', key })) };
  }
  if (text.length > MAX_LOGIC_LENGTH) return `must be at most ${MAX_LOGIC_LENGTH} characters`;
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return tokens;
  let at = 0;
  const known = new Set(keys);
  // Recursion depth is bounded by the expression's length (MAX_LOGIC_LENGTH).
  const expr = (join: 'or' | 'and'): Logic | string => {
    const parts: Logic[] = [];
    for (;;) {
      const part = join === 'or' ? expr('and') : factor();
      if (typeof part === 'string') return part;
      parts.push(part);
      if (tokens[at] !== join) break;
      at += 1;
    }
    return parts.length === 1 ? (parts[0] as Logic) : { op: join, parts };
  };
  const factor = (): Logic | string => {
    const token = tokens[at++];
    if (token === '(') {
      const inner = expr('or');
      if (typeof inner === 'string') return inner;
      return tokens[at++] === ')' ? inner : 'has an unclosed parenthesis';
    }
    if (token === undefined || !/^\d+$/.test(token))
      return token === undefined ? 'ends too early' : `has "${token}" where a condition number belongs`;
    return known.has(token) ? { op: 'ref', key: token } : `names condition ${token}, which the rules do not define`;
  };
  const logic = expr('or');
  if (typeof logic === 'string') return logic;
  return at === tokens.length ? logic : `has "${tokens[at]}" after a complete expression`;
}

/** Evaluates an expression; `value` tells whether a numbered condition holds. */
export function evaluateLogic(logic: Logic, value: (key: string) => boolean): boolean {
  switch (logic.op) {
    case 'true':
      return true;
    case 'ref':
      return value(logic.key);
    case 'and':
      return logic.parts.every((part) => evaluateLogic(part, value));
    case 'or':
      return logic.parts.some((part) => evaluateLogic(part, value));
  }
}
