import { AppError } from '../lib/errors.js';

/**
 * What a database error means, whatever the engine: a unique key, a foreign key or a check
 * refused the write; the database stayed locked (busy); or the transaction lost a race and
 * may simply run again (retry: a serialization failure, a deadlock, a stale snapshot).
 */
export type DatabaseErrorKind = 'unique' | 'foreign_key' | 'check' | 'busy' | 'retry';

type Classifier = (error: unknown) => DatabaseErrorKind | undefined;

const classifiers: Classifier[] = [];

/**
 * Each engine registers how it reads its own errors when it loads (db/sqlite/errors.ts), so
 * this shared code names no engine.
 */
export function registerErrorClassifier(classify: Classifier): void {
  if (!classifiers.includes(classify)) classifiers.push(classify);
}

/** What `error` means as a database error; undefined when it is none (or none that any engine knows). */
export function databaseErrorKind(error: unknown): DatabaseErrorKind | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  for (const classify of classifiers) {
    const kind = classify(error);
    if (kind) return kind;
  }
  return undefined;
}

export const isDatabaseError = (error: unknown, kind: DatabaseErrorKind): boolean => databaseErrorKind(error) === kind;

/** A write refused by one of the schema's constraints (unique, foreign key, check). */
export const isConstraintError = (error: unknown): boolean => {
  const kind = databaseErrorKind(error);
  return kind === 'unique' || kind === 'foreign_key' || kind === 'check';
};

/**
 * The API error a database error is answered with when no service explained it first: a
 * database that stayed locked, or a transaction that lost a race, asks the client to retry.
 * A constraint a service did not expect stays an internal error (a defect, logged).
 */
export function apiErrorOf(error: unknown): AppError | undefined {
  const kind = databaseErrorKind(error);
  if (kind === 'busy' || kind === 'retry')
    return new AppError('database_busy', 'The database stayed locked; retry the request');
  return undefined;
}
