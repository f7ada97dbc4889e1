import type { Db } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import { isDatabaseError } from '../../db/errors.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, duplicateFound, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { listEnvelope } from '../../lib/pagination.js';
import { presentCategory, type CategoryView } from './categories.presenter.js';
import * as repo from './categories.repository.js';
import { CATEGORY_DELETING } from './category-deleting.seam.js';
import type { CreateCategoryBody, UpdateCategoryBody } from './categories.schemas.js';

type WriteDeps = Pick<Deps, 'db' | 'clock'>;
type DeleteDeps = Pick<Deps, 'db' | 'seams'>;

/**
 * The reference's category endpoints (the SDK's `categories.*`). Categories are also made on
 * first use of a `category` name (hierarchy 0); these name, order and remove them. A name is
 * unique (409 duplicate_found).
 */
async function requireCategory(db: Db, id: string): Promise<repo.CategoryRow> {
  const row = await repo.findCategoryById(db, id);
  if (!row) throw notFound('category', id);
  return row;
}

async function checkNameFree(db: Db, name: string, id?: string): Promise<void> {
  const taken = await repo.findCategoryByName(db, name);
  if (taken && taken.id !== id) throw duplicateFound('category', 'name', name);
}

/** POST /v1/categories. */
export async function createCategory(deps: WriteDeps, body: CreateCategoryBody): Promise<CategoryView> {
  return deps.db.transaction().execute(async (trx) => {
    await checkNameFree(trx, body.name);
    const row = {
      id: newId('cat_'),
      name: body.name,
      hierarchy: body.hierarchy,
      created_at: isoNow(deps.clock),
      updated_at: null,
    };
    await repo.insertCategory(trx, row);
    return presentCategory(row);
  });
}

/** GET /v1/categories: all of them, oldest first, with `total` (the reference has no paging here). */
export async function listCategories(deps: Pick<Deps, 'db'>) {
  const rows = await repo.listCategories(deps.db);
  return listEnvelope('data', rows.map(presentCategory), { total: rows.length });
}

/** GET /v1/categories/{categoryId}. */
export const getCategory = async (deps: Pick<Deps, 'db'>, id: string): Promise<CategoryView> =>
  presentCategory(await requireCategory(deps.db, id));

/** PUT /v1/categories/{categoryId}: `name` and `hierarchy` as given, the other kept. */
export async function updateCategory(deps: WriteDeps, id: string, body: UpdateCategoryBody): Promise<CategoryView> {
  return deps.db.transaction().execute(async (trx) => {
    await requireCategory(trx, id);
    if (body.name !== undefined) await checkNameFree(trx, body.name, id);
    const changes = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.hierarchy !== undefined ? { hierarchy: body.hierarchy } : {}),
    };
    await repo.updateCategory(trx, id, changes, isoNow(deps.clock));
    return presentCategory(await requireCategory(trx, id));
  });
}

/**
 * DELETE /v1/categories/{categoryId}: 204; 400 resource_in_use while anything is in the
 * category (a foreign key) or the stacking rules name it (the category seam).
 */
export async function deleteCategory(deps: DeleteDeps, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await requireCategory(trx, id);
    await deps.seams.fire(CATEGORY_DELETING, trx, { categoryId: id });
    try {
      await repo.deleteCategory(trx, id);
    } catch (error) {
      if (!isDatabaseError(error, 'foreign_key')) throw error;
      throw new AppError(
        'resource_in_use',
        `Category ${id} is still given to campaigns, vouchers, promotion tiers or stacks`,
      );
    }
  });
}
