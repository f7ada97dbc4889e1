import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/**
 * A clone needs nothing beside it: no file under src/, test/, bin/ or .ci/ may name a path
 * outside the repository, whether as a relative path that climbs out of it or as an absolute
 * path into the machine it was written on. Nor may any of them, README.md or docs/ send the
 * reader to a document a clone does not have (the product spec, design and scale-out notes
 * that lived beside the checkout): they name the reference's operation or object, or a file
 * inside the repository.
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
    if (line.includes(SHARED_REFERENCE)) found.push(`${index + 1}: ${SHARED_REFERENCE}`);
  });
  return found;
}

/**
 * The names this file checks for, put together at run time: spelled out here they would be
 * offenders themselves, and this file is checked like every other.
 */
const SPEC = `${'SPEC'}.md`;
const DESIGN = `${'DESIGN'}.md`;
const SCALE_OUT = `${'SCALE'}-OUT`;
const FACTS = `${'voucherify'}-facts`;
const SHARED_REFERENCE = `shared/${'reference'}`;
const UP_THREE = '../'.repeat(3);

/** Documents that only ever lived beside the checkout, by name. */
const OUTSIDE_DOCUMENTS = /\b(?:SPEC|DESIGN)\.md\b|\bSCALE[-]OUT\b/g;

/**
 * Every line that cites a document outside the repository, or the facts file other than as
 * `reference/voucherify-facts.md` or by its short name and a section number (the citation
 * reference/README.md documents), with its line number.
 */
export function outsideCitations(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(OUTSIDE_DOCUMENTS)) found.push(`${index + 1}: ${match[0]}`);
    for (const match of line.matchAll(new RegExp(FACTS, 'g'))) {
      const at = match.index;
      const asPath =
        line.slice(Math.max(0, at - 'reference/'.length), at) === 'reference/' &&
        line.startsWith('.md', at + match[0].length);
      const asSection = /^ \d+(?:\.\d+)?\b/.test(line.slice(at + match[0].length));
      if (!asPath && !asSection)
        found.push(`${index + 1}: ${(/^[\w.-]+/.exec(line.slice(at)) as RegExpExecArray)[0].replace(/\.$/, '')}`);
    }
  });
  return found;
}

/** The files the prose check reads: every file under these folders, and README.md. */
const PROSE = [...FOLDERS, 'docs'];

describe('the repository stands alone', () => {
  it('no file under src/, test/, bin/ or .ci/ names a path outside the repository', () => {
    const offenders = FOLDERS.flatMap((folder) =>
      filesUnder(join(ROOT, folder)).flatMap((file) =>
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
          `new URL('${UP_THREE}${SHARED_REFERENCE}/voucherify-openapi.json', import.meta.url)`,
          `readFileSync('/${'work'}/shared/${SPEC}')`,
          `see ${SHARED_REFERENCE}/${FACTS}.md`,
          "new URL('../../reference/voucherify-openapi.json', import.meta.url)",
          "import { x } from '../../src/lib/x.js';",
        ].join('\n'),
      ),
      [
        `1: ${UP_THREE}${SHARED_REFERENCE}/voucherify-openapi.json`,
        `1: ${SHARED_REFERENCE}`,
        `2: /${'work'}/shared/${SPEC}`,
        `3: ${SHARED_REFERENCE}`,
      ],
    );
  });

  it('no file under src/, test/, bin/, .ci/, docs/ nor README.md cites a document outside the repository, or the facts file by another name', () => {
    const files = [
      ...PROSE.filter((folder) => existsSync(join(ROOT, folder))).flatMap((folder) => filesUnder(join(ROOT, folder))),
      join(ROOT, 'README.md'),
    ];
    const offenders = files.flatMap((file) =>
      outsideCitations(readFileSync(file, 'utf8')).map((hit) => `${relative(ROOT, file)}:${hit}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('the citation check catches the outside documents and a facts file named any other way', () => {
    assert.deepEqual(
      outsideCitations(
        [
          `/** Orders (${SPEC} 2.11). */`,
          `// guarded statement (${DESIGN} 3)`,
          `see ${SCALE_OUT}.md, or ${'..'}/shared/${SCALE_OUT}`,
          `(${FACTS} 2.9), (${FACTS} 1.17 \`session\`), ${FACTS} 3`,
          `reference/${FACTS}.md 2.2 and [${FACTS} 2.6](../reference/${FACTS}.md)`,
          `the ${FACTS} file, ${FACTS}.md 2.2, shared/${FACTS}.md`,
          '"List Customers" in the API reference; the Order object; docs/architecture.md',
        ].join('\n'),
      ),
      [
        `1: ${SPEC}`,
        `2: ${DESIGN}`,
        `3: ${SCALE_OUT}`,
        `3: ${SCALE_OUT}`,
        `6: ${FACTS}`,
        `6: ${FACTS}.md`,
        `6: ${FACTS}.md`,
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
