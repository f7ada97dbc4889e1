import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../../src/db/sqlite/connect.js';
import { freshDbFile, tempDir } from '../../support/db.js';

/**
 * Runs `node <args>` to its end: wall seconds and its peak RSS in MB (GNU time's %M when
 * /usr/bin/time exists, else the last VmHWM polled from /proc). A non-zero exit rejects with
 * the end of its output, named by `label`.
 */
export function runMeasured(args: string[], label: string): Promise<{ seconds: number; peakRssMb: number }> {
  const timeFile = join(tempDir('promo-bench-time-'), 'time');
  const useTime = existsSync('/usr/bin/time');
  const started = performance.now();
  const child = useTime
    ? spawn('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let polledKb = 0;
  const poll = setInterval(() => {
    try {
      const line =
        readFileSync(`/proc/${child.pid}/status`, 'utf8')
          .split('\n')
          .find((l) => l.startsWith('VmHWM:')) ?? '';
      polledKb = Math.max(polledKb, Number(/(\d+)/.exec(line)?.[1] ?? 0));
    } catch {
      // ended between two polls
    }
  }, 50);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(poll);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`${label} exited ${code}: ${output.slice(-2000)}`));
      const kb = useTime ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) : polledKb;
      resolve({ seconds, peakRssMb: kb / 1024 });
    });
  });
}

/** One measured `promo import` of a file written for it, into a fresh database. */
export interface ImportRun {
  /** Writes the input file; answers its size in bytes. */
  write(file: string): number;
  /** The command's arguments (after the binary) for this file and database. */
  args(file: string, dbFile: string): string[];
  /** Before the import: what the database must hold (a catalog the orders name). */
  prepare?(dbFile: string): void;
  /** After it: throws when the database does not hold what the file said. */
  check(sqlite: BetterSqlite3.Database): void;
}

/**
 * Writes the file, runs the import to its end (wall time and peak RSS), checks what it stored,
 * and removes the file and the database: the import's rate in rows a second over `count`.
 */
export async function measuredImport(
  run: ImportRun,
  file: string,
  count: number,
): Promise<{ rate: number; seconds: number; peakRssMb: number; fileMb: number }> {
  const fileMb = run.write(file) / 1024 / 1024;
  const dbFile = freshDbFile();
  run.prepare?.(dbFile);
  const { seconds, peakRssMb } = await runMeasured(run.args(file, dbFile), 'promo import');
  rmSync(file, { force: true });
  const sqlite = openSqlite(dbFile, { synchronous: 'NORMAL' });
  try {
    run.check(sqlite);
  } finally {
    sqlite.close();
    rmSync(dbFile, { force: true });
  }
  return { rate: count / seconds, seconds, peakRssMb, fileMb };
}
