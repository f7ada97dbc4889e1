import { sql, type RawBuilder } from 'kysely';

/**
 * `+column`: the column's value, in a term the SQLite planner will not serve from an index
 * (its documented way to disqualify one). A list filters on one field and orders by another:
 * a range on the filter's index would read every match (up to the whole table) and sort them
 * before the first row is answered, whereas the order's index is walked and the filter checked
 * on the way, stopping when the page is full. Statistics could tip the planner to the former;
 * this term rules it out. Raw SQL: Kysely's builder has no unary plus.
 */
export const notIndexed = <T = string>(column: string): RawBuilder<T> => sql<T>`+${sql.ref(column)}`;
