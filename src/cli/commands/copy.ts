import { isPostgresUrl } from '../../db/location.js';
import { copyDatabase, type CopyProgress, type CopyReport } from '../../root/copy-database.js';
import { progressBar } from '../../tui/progress-line.js';
import { requireDatabase } from '../mistakes.js';
import { fail, printJson, UsageError } from '../run.js';

export interface CopyOptions {
  from: string;
  to: string;
  json?: boolean;
}

/** A URL as it may be printed: its password hidden. */
export const withoutPassword = (url: string): string =>
  url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@/]*@/, '$1:***@');

/**
 * On a terminal, one stderr line redrawn with a bar; otherwise a plain line as each table is
 * done (copied, then verified), so a log shows how far a long copy got.
 */
function progressReporter(): { update(progress: CopyProgress): void; end(): void } {
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  let last: CopyProgress | undefined;
  const line = (p: CopyProgress) =>
    `${p.phase === 'copy' ? 'copying ' : 'verifying'} ${progressBar(p.total === 0 ? 100 : (p.done / p.total) * 100)} ${p.done}/${p.total} rows  ${p.table}`;
  return {
    update(progress) {
      if (tty) {
        process.stderr.write(`\r${line(progress)}\x1b[K`);
        drawn = true;
      } else if (last && (last.table !== progress.table || last.phase !== progress.phase)) {
        process.stderr.write(
          `${last.phase === 'copy' ? 'copied' : 'verified'} ${last.table} (${last.done}/${last.total} rows)\n`,
        );
      }
      last = progress;
    },
    end() {
      if (drawn) process.stderr.write('\n');
      else if (last)
        process.stderr.write(
          `${last.phase === 'copy' ? 'copied' : 'verified'} ${last.table} (${last.done}/${last.total} rows)\n`,
        );
    },
  };
}

function report(result: CopyReport, options: CopyOptions): void {
  if (options.json) return printJson({ from: options.from, to: withoutPassword(options.to), ...result });
  process.stdout.write(
    `copied ${result.rows} rows in ${result.tables.length} tables from ${options.from} to ${withoutPassword(options.to)} in ${result.seconds.toFixed(1)} s; every table's row count and checksum match\n`,
  );
}

/**
 * `promo copy --from promo.db --to postgres://…`: a whole SQLite database into an empty
 * PostgreSQL one (root/copy-database.ts). Refused: a --to that is not a postgres:// URL, a
 * --from that is (usage, 2); a source that does not exist (a sentence, 1); a target that is not
 * empty, a source whose schema is not this promo's newest (the error body, 1).
 */
export async function copyCommand(options: CopyOptions): Promise<void> {
  if (!isPostgresUrl(options.to))
    return fail(new UsageError(`--to must be a postgres:// URL of an empty database, not ${options.to}`));
  if (isPostgresUrl(options.from))
    return fail(new UsageError('--from must be a SQLite database file: promo copy moves a file into PostgreSQL'));
  const progress = progressReporter();
  try {
    requireDatabase(options.from);
    const result = await copyDatabase(options.from, options.to, progress.update);
    progress.end();
    report(result, options);
  } catch (error) {
    progress.end();
    fail(error, { dbFile: options.from });
  }
}
