/**
 * `npm run bench [-- name ...]`: runs each test/bench/*.bench.ts (or those whose name contains
 * one of the arguments) in its own process, one after another, so they never share the CPU.
 * Each prints one JSON line with its figure and the baseline measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stderr.write(`# ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
