import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The command line's user mistakes: a path that cannot be used, a file that is not a
 * database, a port another program holds, a reader that closed the pipe. They are the
 * operator's to fix, so they are told in one plain sentence (exit 1), never as a 500 body or a
 * stack. Every command reaches this file through run.ts's `fail`; commands do not catch them.
 */

/** A mistake already put in words (exit 1 with its message). */
export class UserMistake extends Error {
  override name = 'UserMistake';
}

/** What a sentence may need beyond the error itself: the database file the command opened. */
export interface MistakeContext {
  dbFile?: string;
}

/** The answer for a closed stdout: no sentence, and the command ends as a success. */
export const QUIET_END = Symbol('quiet end');

const noDatabase = (dbFile: string): UserMistake =>
  new UserMistake(`no promo database at ${dbFile}; \`promo migrate --db ${dbFile}\` creates one`);

const missingFolder = (path: string): string => `cannot write ${path}: the folder ${dirname(path)} does not exist`;

/**
 * A file about to be written (a backup, a new database): its folder must exist and be
 * writable. better-sqlite3 names neither the path nor the cause when it is not, so this is
 * checked before it opens the file.
 */
export function requireFolderOf(path: string): void {
  if (!existsSync(dirname(path))) throw new UserMistake(missingFolder(path));
  accessSync(dirname(path), constants.W_OK);
}

/** A file the command is about to read: it must be there, be a file, and be readable. */
export function requireFile(path: string): void {
  if (!existsSync(path)) throw new UserMistake(`no file at ${path}`);
  if (statSync(path).isDirectory()) throw new UserMistake(`${path} is a folder, not a file`);
  accessSync(path, constants.R_OK);
}

/** A database file the command was about to open, which must already exist. */
export function requireDatabase(dbFile: string): void {
  if (!existsSync(dbFile)) throw noDatabase(dbFile);
}

/** serve, migrate and restore make the database when it does not exist: true when they will (its folder exists). */
export function databaseToCreate(dbFile: string): boolean {
  if (existsSync(dbFile)) return false;
  requireFolderOf(dbFile);
  return true;
}

type Errno = NodeJS.ErrnoException & { address?: string; port?: number };

/** Node's errors about a path (open, stat, access, mkdir...). */
function pathSentence(code: string, path: string): string | undefined {
  const sentences: Record<string, () => string> = {
    ENOENT: () => (existsSync(dirname(path)) ? `no file at ${path}` : missingFolder(path)),
    EACCES: () => `cannot use ${path}: permission denied`,
    EPERM: () => `cannot use ${path}: permission denied`,
    EISDIR: () => `${path} is a folder, not a file`,
    ENOTDIR: () => `cannot use ${path}: a part of it is a file, not a folder`,
    EROFS: () => `cannot write ${path}: the file system is read-only`,
    ENOSPC: () => `cannot write ${path}: no space left on the disk`,
  };
  return sentences[code]?.();
}

/** `listen` failing: the address and port are on the error. */
function listenSentence(code: string, host: string, port: number): string | undefined {
  const sentences: Record<string, string> = {
    EADDRINUSE: `port ${port} on ${host} is already in use by another program (another promo serve?); stop it, or choose another port with --port or PROMO_PORT (0 picks a free one)`,
    EACCES: `this user may not listen on ${host}:${port} (ports below 1024 need privileges); choose a port above 1023 with --port or PROMO_PORT`,
    EADDRNOTAVAIL: `${host} is not an address of this machine; use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), or PROMO_HOST`,
  };
  return sentences[code];
}

/** SQLite refusing the database file itself. */
function databaseSentence(code: string, dbFile: string): string | undefined {
  const isFolder = existsSync(dbFile) && statSync(dbFile).isDirectory();
  const sentences: Record<string, string> = {
    SQLITE_NOTADB: `${dbFile} is not a promo database (it is not a SQLite file)`,
    SQLITE_CANTOPEN: isFolder
      ? `${dbFile} is a folder, not a database file`
      : `cannot open ${dbFile}: check that this user may read and write it and its folder`,
    SQLITE_READONLY: `cannot write ${dbFile}: this user may only read it (or its folder)`,
    SQLITE_FULL: `cannot write ${dbFile}: no space left on the disk`,
  };
  // better-sqlite3 gives the extended code (SQLITE_CANTOPEN_ISDIR); the base code decides.
  return sentences[code.split('_').slice(0, 2).join('_')];
}

/**
 * The sentence for a user mistake, QUIET_END for a closed stdout (EPIPE: `promo export | head`
 * is a normal end for a Unix tool), or undefined for anything else (a fault of promo's own).
 */
export function userMistake(error: unknown, context: MistakeContext = {}): string | typeof QUIET_END | undefined {
  if (error instanceof UserMistake) return error.message;
  const { code, path, syscall, address, port } = (error ?? {}) as Errno;
  if (typeof code !== 'string') return undefined;
  if (code === 'EPIPE') return QUIET_END;
  if (syscall === 'listen' && address !== undefined && port !== undefined) return listenSentence(code, address, port);
  if (typeof path === 'string') return pathSentence(code, path);
  if (code.startsWith('SQLITE_') && context.dbFile !== undefined) return databaseSentence(code, context.dbFile);
  return undefined;
}
