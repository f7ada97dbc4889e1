import type { LogLevel } from '../app/logger.js';
import { databaseErrorKind } from '../db/errors.js';
import type { CommitStats } from '../db/engine.js';
import { AppError, type ErrorExtras, type ErrorKey } from '../lib/errors.js';

/**
 * What the main thread and the writer thread (root/writer-thread.ts) say to each other. Every
 * value is structured-cloneable: an error crosses as what the main thread needs to answer it
 * exactly as if it had been thrown there.
 */
export interface WriterThreadSetup {
  dbFile: string;
  logLevel: LogLevel;
  /** The main connection's write intent and writer turn (db/sqlite/write-intent.ts, writer-turn.ts). */
  writeIntent: SharedArrayBuffer;
  writerTurn: SharedArrayBuffer;
}

export type WriterRequest =
  | {
      id: number;
      operation: string;
      args: unknown[];
      /** The request's pending first write (an idempotency key's row), to run in its first transaction. */
      firstWrite?: { sql: string; parameters: readonly unknown[] };
    }
  | { id: number; close: true };

export type CrossedError =
  | { app: { key: ErrorKey; details: string; extras: ErrorExtras } }
  /** A database error, by its code: the main thread classifies it (busy: 503) as its own. */
  | { database: { code: string; message: string } }
  | { internal: { message: string; stack?: string } };

export interface WriterReply {
  id: number;
  text?: string;
  error?: CrossedError;
  /** Whether the error came from the first write itself (the key was taken). */
  firstWriteRefused?: boolean;
  firstWriteDone?: boolean;
  /** The thread's group commit, for /metrics. */
  commits?: CommitStats;
}

export function crossed(error: unknown): CrossedError {
  if (error instanceof AppError) return { app: { key: error.key, details: error.details, extras: error.extras } };
  if (databaseErrorKind(error))
    return { database: { code: String((error as { code: unknown }).code), message: (error as Error).message } };
  const { message, stack } = error instanceof Error ? error : { message: String(error), stack: undefined };
  return { internal: { message, stack } };
}

/** The error `crossed` describes, rebuilt on the main thread. */
export function rebuilt(error: CrossedError): Error {
  if ('app' in error) return new AppError(error.app.key, error.app.details, error.app.extras);
  if ('database' in error) return Object.assign(new Error(error.database.message), { code: error.database.code });
  return Object.assign(new Error(`writer thread: ${error.internal.message}`), { stack: error.internal.stack });
}
