import type { Tx } from '../../db/engine.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { presentCategory, type CategoryView } from './categories.presenter.js';
import * as repo from './categories.repository.js';

/**
 * The category id for a `category` name or a `category_id`, inside the caller's transaction:
 * a name that does not exist yet becomes a new category; an unknown id is 404. Null clears;
 * undefined (neither given) leaves it unchanged.
 */
export async function resolveCategoryId(
  trx: Tx,
  input: { category?: string | null; category_id?: string | null },
  now: string,
): Promise<string | null | undefined> {
  if (input.category_id) {
    const found = await repo.findCategoryById(trx, input.category_id);
    if (!found) throw notFound('category', input.category_id);
    return found.id;
  }
  if (input.category) {
    const existing = await repo.findCategoryByName(trx, input.category);
    if (existing) return existing.id;
    const row = { id: newId('cat_'), name: input.category, hierarchy: 0, created_at: now, updated_at: null };
    await repo.insertCategoryIfAbsent(trx, row);
    return (await repo.findCategoryByName(trx, input.category))?.id ?? row.id;
  }
  if (input.category === null || input.category_id === null) return null;
  return undefined;
}

/** Categories by id, for presenting a page of resources without one query each. */
export async function categoriesById(
  db: Kysely<Database>,
  ids: Array<string | null>,
): Promise<Map<string, CategoryView>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const rows = await repo.findCategoriesByIds(db, wanted);
  return new Map(rows.map((row) => [row.id, presentCategory(row)]));
}

/** The id of the category with this id or name, or undefined (a list filter: nothing is created). */
export async function findCategoryId(db: Kysely<Database>, idOrName: string): Promise<string | undefined> {
  return ((await repo.findCategoryById(db, idOrName)) ?? (await repo.findCategoryByName(db, idOrName)))?.id;
}
