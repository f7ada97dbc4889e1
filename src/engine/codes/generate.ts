import type { CodeTemplate } from './code-template.js';
import { uniformIndex, type ByteSource } from './random.js';

/**
 * A generator of random codes for a template: each `#` of the pattern becomes a uniformly
 * chosen character of the charset. It does not know which codes are taken; the caller
 * inserts with a uniqueness check and draws again on a collision.
 */
export function codeGenerator(template: CodeTemplate, source?: ByteSource): () => string {
  const pick = uniformIndex(template.charset.length, source);
  const charset = template.charset;
  // The pattern as runs of fixed text separated by single random positions.
  const pieces: Array<string | null> = Array.from(template.pattern).map((c) => (c === '#' ? null : c));
  const head = template.prefix;
  const tail = template.postfix;
  return () => {
    let code = head;
    for (const piece of pieces) code += piece ?? (charset[pick()] as string);
    return code + tail;
  };
}
