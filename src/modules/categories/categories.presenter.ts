import type { CategoryRow } from './categories.repository.js';

/** A category as embedded in campaigns, tiers and vouchers (`categories[]`). */
export interface CategoryView {
  id: string;
  name: string;
  hierarchy: number;
  object: 'category';
  created_at: string;
  /** Left out until the category is updated, as every recorded category answer does. */
  updated_at?: string;
}

export const presentCategory = (row: Omit<CategoryRow, 'seq'>): CategoryView => ({
  id: row.id,
  name: row.name,
  hierarchy: row.hierarchy,
  object: 'category',
  created_at: row.created_at,
  ...(row.updated_at === null ? {} : { updated_at: row.updated_at }),
});

/** The `categories` list of a resource: its one category, or none. */
export const categoriesOf = (id: string | null, categories: Map<string, CategoryView>): CategoryView[] => {
  const found = id === null ? undefined : categories.get(id);
  return found ? [found] : [];
};
