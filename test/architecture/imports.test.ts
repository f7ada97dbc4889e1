import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { findCycle } from '../support/cycles.js';

/**
 * The house's layering, read from the sources: every relative import (type-only ones too)
 * between the tree's units, where a unit is a domain folder under src/modules/ or another
 * top-level folder of src/ (a domain's *.routes.ts belongs to http). The unit graph must have no cycle at all, and the entry points
 * must not reach past the services.
 */
const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** A domain's routes are the HTTP layer's adapters kept beside their domain: they count as http. */
const unitOf = (file: string): string => {
  if (file.endsWith('.routes.ts')) return 'http';
  const parts = relative(SRC, file).split('/');
  return parts[0] === 'modules' ? `modules/${parts[1]}` : (parts[0] as string).replace(/\.tsx?$/, '');
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) =>
    resolve(dirname(file), (m[1] ?? m[2]) as string).replace(/\.js$/, '.ts'),
  );
}

const files = sourceFiles(SRC);
const edges = new Map<string, Map<string, string>>();
for (const file of files) {
  for (const target of importsOf(file)) {
    // db/database.ts gathers every *.table.ts into Kysely's Database type, by design (docs/architecture.md, Design rules).
    if (file.endsWith('/db/database.ts') && target.endsWith('.table.ts')) continue;
    const from = unitOf(file);
    const to = unitOf(target);
    if (from === to) continue;
    const out = edges.get(from) ?? new Map<string, string>();
    if (!out.has(to)) out.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    edges.set(from, out);
  }
}

/**
 * What may still be imported from db/sqlite/ outside it and src/root/, and why. Everything else
 * goes through the port (db/engine.ts) or the engine-neutral helpers of db/.
 */
const SQLITE_ONLY = new Map([
  // SQL in SQLite's dialect that list repositories build on: a second engine needs its own
  // term per query (the PostgreSQL dialect work, in the repositories), not a port method.
  ['db/sqlite/plan-hints.ts', "`+column`, SQLite's planner term that keeps an index out of a list's plan"],
  // SQLite's own tools over its file, beside the engine rather than behind it.
  ['db/sqlite/migrate.ts', "`promo migrate` and backups' schema check run sql/*.sql, SQLite's migrations"],
  ['db/sqlite/backup.ts', 'backups copy the SQLite file page by page (promo backup)'],
]);

describe('import graph', () => {
  it('has no cycle between units (domain folders and top-level folders)', () => {
    const cycle = findCycle(new Map([...edges].map(([unit, out]) => [unit, [...out.keys()]])));
    const why = cycle
      ?.slice(1)
      .map((to, i) => edges.get(cycle[i] as string)?.get(to))
      .join('\n  ');
    assert.equal(cycle, undefined, `cycle ${cycle?.join(' -> ')}:\n  ${why}`);
  });

  it('keeps engine/ free of I/O layers', () => {
    const reached = [...(edges.get('engine')?.keys() ?? [])].filter((u) => u !== 'lib');
    assert.deepEqual(reached, []);
  });

  it('lets routes, commands and the TUI reach services only, never a repository or kysely', () => {
    const offenders = files
      .filter((f) => /\.routes\.ts$|\/cli\/|\/tui\//.test(f))
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8');
        const bad = importsOf(f)
          .filter((t) => t.endsWith('.repository.ts'))
          .map((t) => relative(SRC, t));
        if (/from ['"]kysely['"]/.test(text)) bad.push('kysely');
        return bad.map((b) => `${relative(SRC, f)} -> ${b}`);
      });
    assert.deepEqual(offenders, []);
  });

  it('keeps better-sqlite3 under db/sqlite/: everything else reaches the database through the engine port (db/engine.ts)', () => {
    const offenders = files
      .filter((f) => !relative(SRC, f).startsWith('db/sqlite/'))
      .filter((f) => /from ['"]better-sqlite3['"]|import\(['"]better-sqlite3['"]\)/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    assert.deepEqual(offenders, []);
  });

  it('keeps db/sqlite/ to the engine itself and the composition root, but for the SQLite-only tools named here', () => {
    const offenders = files
      .filter((f) => !/^(db\/sqlite|root)\//.test(relative(SRC, f)))
      .flatMap((f) =>
        importsOf(f)
          .map((t) => relative(SRC, t))
          .filter((t) => t.startsWith('db/sqlite/') && !SQLITE_ONLY.has(t))
          .map((t) => `${relative(SRC, f)} -> ${t}`),
      );
    assert.deepEqual(offenders, []);
  });
});
