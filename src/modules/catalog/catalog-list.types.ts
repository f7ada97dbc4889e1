/** How a catalog list is cut: a page of rows in one order, optionally within creation dates. */
export interface ListWindow {
  limit: number;
  offset: number;
  sort: { field: 'created_at' | 'updated_at'; direction: 'asc' | 'desc' };
  /** created_at >= this (ISO). */
  createdFrom?: string;
  /** created_at <= this (ISO). */
  createdTo?: string;
}
