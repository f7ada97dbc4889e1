import type { Deps } from '../../src/app/deps.js';
import { sqliteEngineOf } from '../../src/db/sqlite/engine.js';

/**
 * The SQLite connection behind a Deps' engine, for tests that look at the file directly
 * (counts, plans, pragmas). Services never get it: they go through the engine's port.
 */
export const sqliteOf = (deps: Pick<Deps, 'engine'>) => sqliteEngineOf(deps.engine).sqlite;
