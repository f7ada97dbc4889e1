import type { Generated } from 'kysely';

/** Categories, created on demand from a `category` name (or referenced by `category_id`). */
export interface CategoryTable {
  /** Insert order (sql/0036): a trigger numbers each new row. */
  seq: Generated<number>;
  id: string;
  name: string;
  hierarchy: number;
  created_at: string;
  updated_at: string | null;
}

export interface CategoriesTables {
  categories: CategoryTable;
}
