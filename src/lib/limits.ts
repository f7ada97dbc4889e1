/**
 * What one stored value may weigh. better-sqlite3 is synchronous, so a row that takes seconds
 * to read or present stalls every request; these bounds keep every row small and every
 * answer quick to build. The limits table of docs/api.md lists them.
 */
export const LIMITS = {
  /** Nesting of any JSON request body, import item or stored JSON value (objects and arrays). */
  jsonDepth: 32,
  /** A metadata object (or other free-form JSON object), serialized. */
  metadataBytes: 64 * 1024,
  /** Names, codes, source ids, emails and other short text. */
  shortText: 255,
  /** Descriptions and additional info. */
  longText: 4096,
  /** URLs (images). */
  url: 2048,
  /** Items of one order (the reference's "Import Orders": up to 500). */
  orderItems: 500,
} as const;

/** How deeply a JSON value nests (a scalar is 0, `{}` and `[]` are 1), without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > LIMITS.jsonDepth) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}
