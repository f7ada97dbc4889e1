import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { findCycle } from '../support/cycles.js';

/**
 * Two checks on the sources that the unit-level layering test (imports.test.ts) cannot make:
 * no import cycle between files (type-only imports count: a cycle of types is still two files
 * that cannot be understood one without the other), and no wiring by path strings (code that
 * names a module by a string the type-checker does not follow).
 */
const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

const importsOf = (file: string, text: string): string[] =>
  [...text.matchAll(IMPORT)].map((m) =>
    resolve(dirname(file), (m[1] ?? m[2] ?? m[3]) as string).replace(/\.js$/, '.ts'),
  );

const texts = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(file, 'utf8')]));
const graph = new Map([...texts].map(([file, text]) => [file, importsOf(file, text)]));

/**
 * A string that names a source file by path (`'../modules/x/y.job.ts'`, `'x.service.js'`)
 * anywhere but in an import: a module wired by its path, invisible to the type-checker.
 */
const PATH_STRING = /['"`][^'"`\n]*\.(?:ts|tsx|js)['"`]/g;
const IMPORT_SPECIFIER = /(?:from\s+|import\(\s*|^import\s+)['"][^'"]+['"]/gm;

describe('file graph', () => {
  it('has no import cycle between files', () => {
    const cycle = findCycle(graph);
    assert.equal(cycle, undefined, `cycle: ${cycle?.map((f) => relative(SRC, f)).join(' -> ')}`);
  });

  it('finds a cycle of two files that import each other, even by type only', () => {
    const deps = '/src/app/deps.ts';
    const subscriptions = '/src/app/subscriptions.ts';
    const cyclic = new Map([
      [deps, [subscriptions]],
      [subscriptions, [deps]],
    ]);
    assert.deepEqual(findCycle(cyclic), [deps, subscriptions, deps]);
    const fixture = `import type { Deps } from './deps.js';\nimport { x } from './subscriptions.js';`;
    assert.deepEqual(importsOf('/src/app/a.ts', fixture), [deps, subscriptions]);
  });

  it('wires no module by a path string: job steps, sweeps and subscriptions are typed imports', () => {
    const offenders = [...texts].flatMap(([file, text]) =>
      [...text.replace(IMPORT_SPECIFIER, '').matchAll(PATH_STRING)].map((m) => `${relative(SRC, file)}: ${m[0]}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("lets only the composition root (src/root) import another module's job steps, sweeps and seam subscriptions", () => {
    const moduleOf = (file: string): string => relative(SRC, file).split('/').slice(0, 2).join('/');
    const offenders = [...graph].flatMap(([file, targets]) =>
      relative(SRC, file).startsWith('root/')
        ? []
        : targets
            .filter((t) => /\.(job|sweep|subscriptions)\.ts$/.test(t) && moduleOf(t) !== moduleOf(file))
            .map((t) => `${relative(SRC, file)} -> ${relative(SRC, t)}`),
    );
    assert.deepEqual(offenders, []);
  });
});
