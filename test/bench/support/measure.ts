import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/db.js';

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
    ? spawn('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let polledKb = 0;
  const poll = setInterval(() => {
    try {
      const line = readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:')) ?? '';
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
