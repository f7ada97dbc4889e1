/**
 * Voucher code configuration (`code_config`): `length`, `charset`, `prefix`, `postfix` and
 * `pattern`, where every `#` of the pattern is one random character of the charset and the
 * pattern overrides `length`. A generated code is prefix + expanded pattern + postfix.
 */
export interface CodeConfigInput {
  length?: number;
  charset?: string;
  prefix?: string;
  postfix?: string;
  pattern?: string;
}

/** The normalized configuration: the pattern is always set, the charset has no repeats. */
export interface CodeTemplate {
  prefix: string;
  postfix: string;
  pattern: string;
  /** Distinct characters (code points), in first-seen order. */
  charset: string[];
}

// In the reference's order (0-9a-zA-Z): clients compare the answered charset string.
export const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const DEFAULT_CODE_LENGTH = 8;
export const MAX_CODE_LENGTH = 255;

export type TemplateResult = { ok: true; template: CodeTemplate } | { ok: false; error: string };

const distinct = (text: string): string[] => [...new Set(Array.from(text))];

/** Checks and normalizes a code_config. Errors are sentences for the `details` of a 400. */
export function codeTemplate(input: CodeConfigInput = {}): TemplateResult {
  const charset = distinct(input.charset ?? ALPHANUMERIC);
  if (charset.length === 0) return { ok: false, error: 'code_config.charset must contain at least one character' };
  if (charset.length > 2 ** 32) return { ok: false, error: 'code_config.charset is too large' };
  let pattern = input.pattern;
  if (pattern === undefined) {
    const length = input.length ?? DEFAULT_CODE_LENGTH;
    if (!Number.isInteger(length) || length < 1 || length > MAX_CODE_LENGTH) {
      return { ok: false, error: `code_config.length must be an integer from 1 to ${MAX_CODE_LENGTH}` };
    }
    pattern = '#'.repeat(length);
  }
  const prefix = input.prefix ?? '';
  const postfix = input.postfix ?? '';
  const total = Array.from(prefix + pattern + postfix).length;
  if (total === 0) return { ok: false, error: 'code_config.pattern must not be empty' };
  if (total > MAX_CODE_LENGTH)
    return {
      ok: false,
      error: `A generated code would be ${total} characters long; at most ${MAX_CODE_LENGTH} are allowed`,
    };
  return { ok: true, template: { prefix, postfix, pattern, charset } };
}

/** Number of random positions (`#`) in the pattern. */
export const slotCount = (template: CodeTemplate): number =>
  Array.from(template.pattern).filter((c) => c === '#').length;

/** How many distinct codes the template can produce: charset size ^ slots. */
export const capacity = (template: CodeTemplate): bigint =>
  BigInt(template.charset.length) ** BigInt(slotCount(template));

/** The code_config as answered by the API: what was configured, with defaults filled in. */
export interface PresentedCodeConfig {
  length: number;
  charset: string;
  prefix?: string;
  postfix?: string;
  pattern: string;
}

export function presentCodeConfig(template: CodeTemplate): PresentedCodeConfig {
  return {
    length: slotCount(template),
    charset: template.charset.join(''),
    ...(template.prefix ? { prefix: template.prefix } : {}),
    ...(template.postfix ? { postfix: template.postfix } : {}),
    pattern: template.pattern,
  };
}

const GLOB_SPECIAL = new Set(['*', '?', '[', ']']);
const globLiteral = (c: string): string => (GLOB_SPECIAL.has(c) ? `[${c}]` : c);

/** A GLOB character class matching exactly the charset (`]` first, `-` last, `^` never first). */
function globClass(charset: string[]): string {
  if (charset.length === 1) return globLiteral(charset[0] as string);
  const has = (c: string) => charset.includes(c);
  const plain = charset.filter((c) => c !== ']' && c !== '-' && c !== '^');
  const ordered = [...(has(']') ? [']'] : []), ...plain, ...(has('^') ? ['^'] : []), ...(has('-') ? ['-'] : [])];
  if (ordered[0] === '^') ordered.push(ordered.shift() as string); // only ^ and -: "-^"
  return `[${ordered.join('')}]`;
}

/**
 * An SQLite GLOB pattern matching exactly the codes this template can produce (fixed
 * characters, and one charset class per `#`), to count the codes already taken.
 */
export function templateGlob(template: CodeTemplate): string {
  const klass = globClass(template.charset);
  const middle = Array.from(template.pattern).map((c) => (c === '#' ? klass : globLiteral(c)));
  return [
    ...Array.from(template.prefix).map(globLiteral),
    ...middle,
    ...Array.from(template.postfix).map(globLiteral),
  ].join('');
}

/** The fixed text every code of the template starts with (for an index range scan). */
export function literalPrefix(template: CodeTemplate): string {
  const firstSlot = template.pattern.indexOf('#');
  return template.prefix + (firstSlot < 0 ? template.pattern + template.postfix : template.pattern.slice(0, firstSlot));
}
