import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random base62 text from crypto. Bytes >= 248 are rejected so that every character is
 * equally likely (248 = 4 * 62).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A Voucherify-style id: the resource's prefix and 16 random base62 characters. */
export const newId = (prefix: string): string => `${prefix}${randomBase62(16)}`;

/** Request ids look like the reference's: `v-` and 18 hex digits. */
export const newRequestId = (): string => `v-${randomBytes(9).toString('hex')}`;
