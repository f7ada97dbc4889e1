import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/**
 * A clone needs nothing beside it: no file under src/, test/, bin/ or .ci/ may name a path
 * outside the repository, whether as a relative path that climbs out of it or as an absolute
 * path into the machine it was written on.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'test', 'bin', '.ci'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Relative paths in quotes, template literals or prose: `../x`, `./../x`, `'../../x'`. */
const RELATIVE = /(?:^|[\s'"`(=,])((?:\.\/)?(?:\.\.\/)+[\w.@-][\w./@-]*)/g;
/** Absolute paths into a workplace or a home folder, which no other machine has. */
const ABSOLUTE = /(?:^|[\s'"`(=,])(\/(?:work|home|root|Users)\/[\w./@-]+)/g;

/** Every path a file names that leads outside the repository, with its line number. */
export function pathsLeavingRepo(file: string, text: string, root = ROOT): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(RELATIVE)) {
      const target = resolve(dirname(file), match[1] as string);
      if (target !== root && !target.startsWith(root + sep)) found.push(`${index + 1}: ${match[1]}`);
    }
    for (const match of line.matchAll(ABSOLUTE)) found.push(`${index + 1}: ${match[1]}`);
    if (/\bshared\/reference\b/.test(line)) found.push(`${index + 1}: shared/reference`);
  });
  return found;
}

describe('the repository stands alone', () => {
  it('no file under src/, test/, bin/ or .ci/ names a path outside the repository', () => {
    const offenders = FOLDERS.flatMap((folder) =>
      filesUnder(join(ROOT, folder))
        // This file spells the forbidden paths out as the check's own examples.
        .filter((file) => file !== import.meta.filename)
        .flatMap((file) =>
        pathsLeavingRepo(file, readFileSync(file, 'utf8')).map((hit) => `${relative(ROOT, file)}:${hit}`),
      ),
    );
    assert.deepEqual(offenders, []);
  });

  it('the check catches a path that climbs out, an absolute path and the old reference folder', () => {
    const file = join(ROOT, 'test', 'support', 'x.ts');
    assert.deepEqual(
      pathsLeavingRepo(
        file,
        [
          "new URL('../../../shared/reference/voucherify-openapi.json', import.meta.url)",
          "readFileSync('/work/shared/SPEC.md')",
          'see shared/reference/voucherify-facts.md',
          "new URL('../../reference/voucherify-openapi.json', import.meta.url)",
          "import { x } from '../../src/lib/x.js';",
        ].join('\n'),
      ),
      [
        '1: ../../../shared/reference/voucherify-openapi.json',
        '1: shared/reference',
        '2: /work/shared/SPEC.md',
        '3: shared/reference',
      ],
    );
  });

  it('the reference documents the tests read are inside the repository', () => {
    for (const name of ['voucherify-openapi.json', 'voucherify-openapi-subset.json', 'README.md']) {
      assert.ok(readFileSync(join(ROOT, 'reference', name), 'utf8').length > 0, name);
    }
  });

  it('git ignores databases, their WAL files, export folders and the copies restore keeps', () => {
    const paths = [
      'promo.db',
      'promo.db-wal',
      'promo.db-shm',
      'data/shop.db',
      'promo.db.exports/exp_1.csv',
      'promo.db.replaced-2026-11-28T10-00-00-000Z',
    ];
    // check-ignore prints each path it ignores: all of them, or a `git add -A` commits one.
    const ignored = execFileSync('git', ['check-ignore', '--no-index', ...paths], { cwd: ROOT, encoding: 'utf8' });
    assert.deepEqual(ignored.trim().split('\n'), paths);
  });
});
