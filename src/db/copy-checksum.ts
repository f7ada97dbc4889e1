import { createHash } from 'node:crypto';

/** How a column's values compare between engines: by the target's column type. */
export type ValueClass = 'integer' | 'real' | 'text';

/** A PostgreSQL column type's class (promo's schema has bigint, text and, in principle, floats). */
export const valueClassOf = (dataType: string): ValueClass =>
  /int|serial/.test(dataType) ? 'integer' : /double|real|numeric|float/.test(dataType) ? 'real' : 'text';

/**
 * A value as both engines must agree on it: integers (SQLite INTEGER, PostgreSQL bigint; the
 * 0/1 flags are integers on both, no boolean type is used) as numbers, floats as numbers, text
 * (JSON included: both store it as text, so it is compared byte for byte, never reparsed) as
 * the string, NULL as null. A SQLite value of another type than its column's (a loose table)
 * is taken as PostgreSQL would store it: '5' in an integer column is 5, 5 in a text column '5'.
 */
function canonical(value: unknown, kind: ValueClass): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'text') return typeof value === 'string' ? value : String(value);
  const number = Number(value);
  return Number.isFinite(number) ? number : String(value);
}

const MASK = (1n << 64n) - 1n;

/**
 * A table's checksum that does not depend on row order (each engine may answer in its own):
 * the row count, and the sum modulo 2^64 of each row's first 64 bits of SHA-256 over the JSON
 * array of its canonical values in column order.
 */
export class TableChecksum {
  private rows = 0;
  private sum = 0n;

  constructor(private readonly classes: readonly ValueClass[]) {}

  add(row: readonly unknown[]): void {
    const text = JSON.stringify(row.map((value, i) => canonical(value, this.classes[i] ?? 'text')));
    this.sum = (this.sum + createHash('sha256').update(text).digest().readBigUInt64BE(0)) & MASK;
    this.rows++;
  }

  get count(): number {
    return this.rows;
  }

  get value(): string {
    return this.sum.toString(16).padStart(16, '0');
  }
}
