import { randomBase62 } from './ids.js';

/**
 * JSON text written once and embedded as is. A redemption serializes each order it answers
 * (~2 KiB for 3 items) for its stored snapshot; the same order appears again in each child's
 * event and in the answer (up to four times). A RawJson holding the snapshot's text stands for
 * the object there, and `stringifyJson` copies the text instead of serializing it again.
 *
 * JSON.stringify has no way to emit raw text on Node 20, so while `stringifyJson` runs each
 * RawJson's toJSON answers a marker string (a NUL character, a per-process random nonce and
 * its number), which the serialized text then trades for the part. Outside `stringifyJson`
 * (a plain JSON.stringify, a test's deepEqual through JSON) it is the object its text holds.
 */
const NONCE = randomBase62(12);
const MARKER = new RegExp(`"\\\\u0000${NONCE}(\\d+)"`, 'g');

let parts: string[] | null = null;

export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (parts === null) return JSON.parse(this.text);
    parts.push(this.text);
    return `\u0000${NONCE}${parts.length - 1}`;
  }
}

/** JSON.stringify(value), with each RawJson inside it written as its text. */
export function stringifyJson(value: unknown): string {
  const outer = parts;
  const mine: string[] = [];
  parts = mine;
  try {
    const text = JSON.stringify(value);
    return mine.length === 0 ? text : text.replace(MARKER, (_, i: string) => mine[Number(i)] as string);
  } finally {
    parts = outer;
  }
}
