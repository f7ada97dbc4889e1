/** Categories, created on demand from a `category` name (or referenced by `category_id`). */
export interface CategoryTable {
  id: string;
  name: string;
  hierarchy: number;
  created_at: string;
  updated_at: string | null;
}

export interface CategoriesTables {
  categories: CategoryTable;
}
