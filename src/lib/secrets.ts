import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets (key tokens, OAuth tokens) are long random strings, so one SHA-256 is enough to
 * store them: there is nothing to brute-force that a slow hash would protect.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Compares a presented secret with one known in clear (a token that matched its hash before)
 * in constant time: cheaper than hashing again. A length that differs compares the known
 * secret with itself, so that answer takes the same time too.
 */
export function sameSecret(presented: string, known: Buffer): boolean {
  const a = Buffer.from(presented);
  const sameLength = a.length === known.length;
  return timingSafeEqual(sameLength ? a : known, known) && sameLength;
}

/** A new secret: 32 random bytes as hex text (the reference's app tokens are UUID-like). */
export const newSecret = (): string => randomBytes(32).toString('hex');
