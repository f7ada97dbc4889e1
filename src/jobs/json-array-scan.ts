/**
 * The elements of a JSON array streamed as bytes, each parsed by JSON.parse: the scanner only
 * finds where each element ends (a comma or the closing bracket outside strings and nested
 * values). stream-json assembles every value token by token in JavaScript, about five times
 * slower: most of what staging an import of 100,000 orders cost. Bytes of multi-byte UTF-8
 * characters never equal the ASCII bytes the scanner looks for, so it works on bytes.
 *
 * It throws NotAJsonArray (or JSON.parse's SyntaxError) at the first thing wrong, without
 * saying where: the caller names it (item-reader.ts reads the file again with stream-json).
 */
export class NotAJsonArray extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function isBlank(bytes: Buffer): boolean {
  for (const c of bytes) if (!isWhitespace(c)) return false;
  return true;
}

/** Where the scan stands between two chunks. */
interface ScanState {
  /** 0: before the opening bracket, 1: inside the array, 2: after its closing bracket. */
  phase: 0 | 1 | 2;
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** The bytes of the current element from earlier chunks. */
  parts: Buffer[];
  /** A comma came after the last element (so the next one may not be missing). */
  afterComma: boolean;
}

/** The element that ends at `end` of `chunk`, parsed; undefined for none (`[]`). */
function element(
  s: ScanState,
  chunk: Buffer,
  start: number,
  end: number,
  closing: boolean,
): { value: unknown } | undefined {
  const tail = chunk.subarray(start, end);
  const bytes = s.parts.length === 0 ? tail : Buffer.concat([...s.parts, tail]);
  s.parts = [];
  if (isBlank(bytes)) {
    if (!closing || s.afterComma) throw new NotAJsonArray();
    return undefined;
  }
  return { value: JSON.parse(bytes.toString('utf8')) };
}

/** The elements that end in this chunk (the scan's state carries over to the next). */
function scanChunk(s: ScanState, chunk: Buffer): unknown[] {
  const values: unknown[] = [];
  let start = 0;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i] as number;
    if (s.phase === 1) {
      if (s.inString) {
        if (s.escaped) s.escaped = false;
        else if (c === BACKSLASH) s.escaped = true;
        else if (c === QUOTE) s.inString = false;
      } else if (c === QUOTE) s.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) s.depth++;
      else if (s.depth > 0) {
        if (c === CLOSE_BRACE || c === CLOSE_BRACKET) s.depth--;
      } else if (c === CLOSE_BRACE) throw new NotAJsonArray();
      else if (c === COMMA || c === CLOSE_BRACKET) {
        const found = element(s, chunk, start, i, c === CLOSE_BRACKET);
        if (found) values.push(found.value);
        s.afterComma = c === COMMA;
        if (c === CLOSE_BRACKET) s.phase = 2;
        start = i + 1;
      }
    } else if (isWhitespace(c)) continue;
    else if (s.phase === 0 && c === OPEN_BRACKET) {
      s.phase = 1;
      start = i + 1;
    } else throw new NotAJsonArray();
  }
  if (s.phase === 1) s.parts.push(chunk.subarray(start));
  return values;
}

/** Each element of the JSON array the bytes hold, in order. */
export async function* scanJsonArray(bytes: AsyncIterable<Buffer>): AsyncGenerator<unknown> {
  const s: ScanState = { phase: 0, depth: 0, inString: false, escaped: false, parts: [], afterComma: false };
  for await (const chunk of bytes) yield* scanChunk(s, chunk);
  if (s.phase !== 2) throw new NotAJsonArray();
}
