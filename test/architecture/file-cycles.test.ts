import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

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

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const importsOf = (file: string, text: string): string[] =>
  [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), (m[1] ?? m[2]) as string).replace(/\.js$/, '.ts'));

/** The first cycle found in a graph of files, as the list of its files (the first repeated at the end). */
export function findFileCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

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
    const cycle = findFileCycle(graph);
    assert.equal(cycle, undefined, `cycle: ${cycle?.map((f) => relative(SRC, f)).join(' -> ')}`);
  });

  it('finds a cycle of two files that import each other, even by type only', () => {
    const deps = '/src/app/deps.ts';
    const subscriptions = '/src/app/subscriptions.ts';
    const cyclic = new Map([
      [deps, [subscriptions]],
      [subscriptions, [deps]],
    ]);
    assert.deepEqual(findFileCycle(cyclic), [deps, subscriptions, deps]);
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
