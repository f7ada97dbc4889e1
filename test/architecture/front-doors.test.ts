import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * Every module under src/modules/ has one front door, its index.ts, and code outside the module
 * imports only that file: a module's other files can then move, split or merge without touching
 * anyone else. The index re-exports and does nothing else.
 *
 * The exceptions, each because going through the index would defeat its purpose:
 * - src/root/ imports `*.job.ts`, `*.sweep.ts` and `*.subscriptions.ts` lazily by file, so a worker
 *   thread that runs one job step loads that step's file and what it needs, not the whole module.
 * - src/http/routes.ts collects each module's `*.routes.ts`: routes are HTTP adapters (they count
 *   as the http unit in imports.test.ts), not verbs other modules call; exporting them from the
 *   index would make every importer of a module load its routes and, through them, the modules
 *   those routes use.
 * - src/db/database.ts gathers every `*.table.ts` into Kysely's Database type; through the index
 *   it would import the services, which import db/engine.ts, which imports database.ts: a cycle.
 * Tests may import a module's internals.
 */
const SRC = resolve(import.meta.dirname, '../../src');
const MODULES = join(SRC, 'modules');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

interface Import {
  target: string;
  lazy: boolean;
  names: string[];
}

const STATIC = /(?:^|\n)\s*(?:import|export)\s([^'"]*?)from\s+['"](\.[^'"]+)['"]/g;
const LAZY = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
const toTs = (from: string, spec: string): string => resolve(dirname(from), spec).replace(/\.js$/, '.ts');
const namesIn = (clause: string): string[] =>
  (clause.match(/\{([^}]*)\}/)?.[1] ?? '')
    .split(',')
    .map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0] as string,
    )
    .filter(Boolean);

export function importsOf(file: string, text: string): Import[] {
  return [
    ...[...text.matchAll(STATIC)].map((m) => ({
      target: toTs(file, m[2] as string),
      lazy: false,
      names: namesIn(m[1] as string),
    })),
    ...[...text.matchAll(LAZY)].map((m) => ({ target: toTs(file, m[1] as string), lazy: true, names: [] })),
  ];
}

/** The module a file belongs to (its folder right under src/modules/), or null outside modules. */
const moduleOf = (file: string): string | null => {
  const parts = relative(MODULES, file).split('/');
  return parts[0] === '..' || parts.length < 2 ? null : (parts[0] as string);
};

/** Why `file` may import `target` past the target module's index.ts, or null if it may not. */
export function doorException(file: string, { target, lazy }: Import): string | null {
  const from = relative(SRC, file);
  if (from.startsWith('root/') && lazy && /\.(job|sweep|subscriptions)\.ts$/.test(target)) return 'lazy step';
  if (from === 'http/routes.ts' && target.endsWith('.routes.ts')) return 'routes';
  if (from === 'db/database.ts' && target.endsWith('.table.ts')) return 'tables';
  return null;
}

/** Imports from outside a module into one of its files other than index.ts, and not excepted. */
export function deepImports(file: string, text: string): string[] {
  return importsOf(file, text)
    .filter((i) => moduleOf(i.target) !== null && moduleOf(i.target) !== moduleOf(file))
    .filter((i) => !i.target.endsWith(`/${moduleOf(i.target)}/index.ts`) && doorException(file, i) === null)
    .map((i) => `${relative(SRC, file)} -> ${relative(SRC, i.target)}`);
}

const texts = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(file, 'utf8')]));
const modules = readdirSync(MODULES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const indexOf = (module: string): string => join(MODULES, module, 'index.ts');

/**
 * The roles a module file may play, named by its suffix: what a reader expects inside before
 * opening it. `rules` is the module's pure logic (no I/O), `types` its shared types and
 * constants, `client` a call out of the process (a webhook's POST), `cache` an in-process cache.
 */
const ROLES = [
  'service',
  'repository',
  'schemas',
  'presenter',
  'routes',
  'job',
  'sweep',
  'seam',
  'subscriptions',
  'table',
  'filters',
  'cache',
  'rules',
  'types',
  'metrics',
  'client',
];
const ROLE_SUFFIX = new RegExp(`\\.(${ROLES.join('|')})\\.ts$`);

/** The file each name an index exports comes from. */
const origins = (index: string): Map<string, string> =>
  new Map(importsOf(index, texts.get(index) ?? '').flatMap((i) => i.names.map((n): [string, string] => [n, i.target])));

describe('front doors', () => {
  it('gives every module an index.ts', () => {
    assert.deepEqual(
      modules.filter((m) => !existsSync(indexOf(m))),
      [],
    );
  });

  it("lets code outside a module import only the module's index.ts (root's lazy steps, http's routes and db's tables excepted)", () => {
    assert.deepEqual(
      [...texts].flatMap(([file, text]) => deepImports(file, text)),
      [],
    );
  });

  it('fails a deep import, and lets the excepted ones and the index through', () => {
    const cli = join(SRC, 'cli/commands/x.ts');
    assert.deepEqual(deepImports(cli, "import { getVoucher } from '../../modules/vouchers/vouchers.service.js';"), [
      'cli/commands/x.ts -> modules/vouchers/vouchers.service.ts',
    ]);
    const loyalty = join(MODULES, 'loyalty/x.service.ts');
    assert.deepEqual(deepImports(loyalty, "import type { VoucherRow } from '../vouchers/vouchers.service.js';"), [
      'modules/loyalty/x.service.ts -> modules/vouchers/vouchers.service.ts',
    ]);
    const fine = [
      [cli, "import { getVoucher } from '../../modules/vouchers/index.js';"],
      [join(MODULES, 'vouchers/x.service.ts'), "import { VoucherRow } from './vouchers.service.js';"],
      [join(SRC, 'root/job-registry.ts'), "() => import('../modules/vouchers/voucher-import.job.js')"],
      [join(SRC, 'http/routes.ts'), "import { vouchersRoutes } from '../modules/vouchers/vouchers.routes.js';"],
    ] as const;
    assert.deepEqual(
      fine.flatMap(([file, text]) => deepImports(file, text)),
      [],
    );
    assert.deepEqual(
      deepImports(join(SRC, 'root/x.ts'), "import { s } from '../modules/vouchers/voucher-import.job.js';"),
      ['root/x.ts -> modules/vouchers/voucher-import.job.ts'],
    );
  });

  it('names every module file by its role (index.ts only as the front door, right under the module)', () => {
    const unnamed = [...texts.keys()]
      .filter((file) => moduleOf(file) !== null && !ROLE_SUFFIX.test(file))
      .filter((file) => file !== indexOf(moduleOf(file) as string))
      .map((file) => relative(SRC, file));
    assert.deepEqual(unnamed, []);
  });

  it('keeps each index.ts to re-exports, of no routes', () => {
    const offenders = modules.flatMap((m) => {
      const text = texts.get(indexOf(m)) ?? '';
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      const statements = code
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = statements.filter((s) => !/^export\s[^'"]*from\s+'\.\/[^']+'$/.test(s) && s !== 'export {}');
      const routes = importsOf(indexOf(m), text).filter((i) => i.target.endsWith('.routes.ts'));
      return [...bad, ...routes.map((i) => relative(SRC, i.target))].map((b) => `${m}/index.ts: ${b}`);
    });
    assert.deepEqual(offenders, []);
  });

  it('has no module import its own index.ts (inside a module, files import each other: the index would make cycles easy)', () => {
    const offenders = [...texts].flatMap(([file, text]) =>
      importsOf(file, text)
        .filter((i) => moduleOf(file) !== null && i.target === indexOf(moduleOf(file) as string))
        .filter(() => !file.endsWith('/index.ts'))
        .map((i) => `${relative(SRC, file)} -> ${relative(SRC, i.target)}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('lets routes, commands and the TUI take no repository function through an index', () => {
    const offenders = [...texts]
      .filter(([file]) => /\.routes\.ts$|\/cli\/|\/tui\//.test(file))
      .flatMap(([file, text]) =>
        importsOf(file, text)
          .filter((i) => i.target.endsWith('/index.ts'))
          .flatMap((i) => {
            const from = origins(i.target);
            return i.names
              .filter((n) => from.get(n)?.endsWith('.repository.ts'))
              .map((n) => `${relative(SRC, file)}: ${n} (${relative(SRC, from.get(n) as string)})`);
          }),
      );
    assert.deepEqual(offenders, []);
  });
});
