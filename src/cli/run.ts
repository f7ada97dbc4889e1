import type { Deps } from '../app/deps.js';
import { AppError, UsageError } from '../lib/errors.js';
import { QUIET_END, requireDatabase, userMistake, type MistakeContext } from './mistakes.js';

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
 * Runs a command's body with the name of its database file; whatever it throws goes to `fail`.
 * The file is not opened here (backup and restore open it their own way).
 */
export async function runCommand(
  options: CommonOptions,
  body: (dbFile: string) => Promise<void> | void,
): Promise<void> {
  const { dbFileFrom } = await import('../app/config.js');
  const dbFile = dbFileFrom(options.db);
  try {
    await body(dbFile);
  } catch (error) {
    fail(error, { dbFile });
  }
}

/**
 * Runs a command's body with the database open, after `before` (checks of the options that
 * come first). A file that does not exist is refused: a mistyped --db would otherwise become a
 * new, empty database (only serve and migrate make one).
 */
export async function runWithDeps(
  options: CommonOptions,
  body: (deps: Deps) => Promise<void>,
  before?: () => void,
): Promise<void> {
  const [{ openDeps }, { exportsDirFrom, logLevelFrom }, { createLogger }, { isPostgresUrl }] = await Promise.all([
    import('../root/create-deps.js'),
    import('../app/config.js'),
    import('../app/logger.js'),
    import('../db/location.js'),
  ]);
  await runCommand(options, async (dbFile) => {
    before?.();
    if (!isPostgresUrl(dbFile)) requireDatabase(dbFile);
    let deps: Deps | undefined;
    try {
      // A command logs only what goes wrong unless PROMO_LOG_LEVEL asks for more: its answer is on stdout.
      const log = createLogger({ level: usage(() => logLevelFrom(undefined, 'warn')) });
      deps = await openDeps({ dbFile, log, exportsDir: exportsDirFrom() });
      await body(deps);
    } finally {
      await deps?.close();
    }
  });
}

/** A setting read from the environment (PROMO_LOG_LEVEL) that is wrong is bad usage, as a wrong flag is. */
function usage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Turns a failure into the contract's exit codes: 2 with the message for bad usage; 1 with
 * one plain sentence for a user mistake (mistakes.ts); 1 with the error body as JSON for an
 * operation the service refused. A closed stdout ends quietly with 0. Anything else is
 * promo's own fault: 500 internal_error, its message but never its stack.
 */
export function fail(error: unknown, context: MistakeContext = {}): void {
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const mistake = userMistake(error, context);
  if (mistake === QUIET_END) {
    process.exitCode = EXIT_OK;
    return;
  }
  if (mistake !== undefined) {
    process.stderr.write(`error: ${mistake}\n`);
    process.exitCode = EXIT_FAILED;
    return;
  }
  const appError =
    error instanceof AppError
      ? error
      : new AppError('internal_error', error instanceof Error ? error.message : String(error));
  process.stderr.write(`${JSON.stringify(appError.toBody())}\n`);
  process.exitCode = EXIT_FAILED;
}
