import type { Deps } from '../app/deps.js';
import { AppError, UsageError } from '../lib/errors.js';

/** Options every command takes. */
export interface CommonOptions {
  db?: string;
  json?: boolean;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export { UsageError };

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Runs a command's body with the database open, and turns failures into the contract's exit
 * codes: 1 with the error body as JSON on stderr for a failed operation, 2 for bad usage.
 */
export async function runWithDeps(options: CommonOptions, body: (deps: Deps) => Promise<void>): Promise<void> {
  const [{ createDeps }, { dbFileFrom, logLevelFrom }, { createLogger }] = await Promise.all([import('../root/create-deps.js'), import('../app/config.js'), import('../app/logger.js')]);
  let deps: Deps | undefined;
  try {
    // A command logs only what goes wrong unless PROMO_LOG_LEVEL asks for more: its answer is on stdout.
    deps = createDeps({ dbFile: dbFileFrom(options.db), log: createLogger({ level: logLevelFrom(undefined, 'warn') }) });
    await body(deps);
  } catch (error) {
    fail(error);
  } finally {
    await deps?.close();
  }
}

export function fail(error: unknown): void {
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const appError = error instanceof AppError ? error : new AppError('internal_error', error instanceof Error ? error.message : String(error));
  process.stderr.write(`${JSON.stringify(appError.toBody())}\n`);
  process.exitCode = EXIT_FAILED;
}
