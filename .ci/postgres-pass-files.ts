/**
 * Makes .ci/postgres-pass.txt, the test files CI's PostgreSQL pass runs, from the TAP output of a
 * whole-suite run on PostgreSQL:
 *
 *   PROMO_TEST_ENGINE=postgres PROMO_TEST_DB=postgres://… node --import tsx --test --test-force-exit \
 *     --test-reporter=tap $(find test -name "*.test.ts" -o -name "*.test.tsx" | grep -v ^test/bench/ | sort) > pg.tap
 *   node --import tsx .ci/postgres-pass-files.ts pg.tap > .ci/postgres-pass.txt
 *
 * A file is listed when none of its tests failed (a skipped test is not a failure: SQLite-only
 * tests skip themselves on PostgreSQL). TAP names the location of a failure only, so the files
 * are those of npm test (every *.test.ts(x) under test/ but test/bench/) minus every file a `not ok`
 * names. Every other file is left out until the engine's gaps are closed (docs/postgres.md
 * lists them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const [tapFile] = process.argv.slice(2);
if (!tapFile) {
  process.stderr.write('usage: postgres-pass-files.ts <tap output of a run on PostgreSQL>\n');
  process.exit(2);
}

/** npm test's files, as package.json's script finds them. */
function suiteFiles(dir = 'test'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === 'test/bench' ? [] : suiteFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files TAP names in a failure: the location of a failed test, or the file itself when it failed as a whole. */
function failedFiles(tap: string): Set<string> {
  const failed = new Set<string>();
  let failing = false;
  const name = (path: string) => relative(process.cwd(), path).replace(/^.*?(?=test\/)/, '');
  for (const line of tap.split('\n')) {
    const result = /^\s*(not ok|ok) \d+ - (.*)$/.exec(line);
    if (result) {
      failing = result[1] === 'not ok';
      if (failing && /\.test\.tsx?$/.test(result[2] ?? '')) failed.add(name(result[2] as string));
    }
    const location = /^\s*location: '(.+?\.test\.tsx?):\d+:\d+'$/.exec(line);
    if (failing && location?.[1]) failed.add(name(location[1]));
  }
  return failed;
}

const failed = failedFiles(readFileSync(tapFile, 'utf8'));
const passing = suiteFiles()
  .filter((file) => !failed.has(file))
  .sort();
process.stdout.write(passing.map((file) => `${file}\n`).join(''));
