/**
 * The condition engine of the reference's product collection filters: pure, no I/O. Product collections use it now;
 * validation rules and customer segments can use it with their own field catalogs.
 *
 *   const catalog = fieldCatalog({ price: 'number', name: 'string' }, { 'metadata.': 'any' });
 *   const checked = validateFilter(body.filter, catalog);        // errors name every bad part
 *   if (checked.ok) matchesFilter(checked.filter, (field) => valueOf(thing, field), now);
 */
export { OPERATORS, OPERATOR_SPECS, isOperator, type FieldKind, type Operator } from './operators.js';
export {
  fieldCatalog,
  type CatalogLookup,
  type Condition,
  type FieldCatalog,
  type Filter,
  type Junction,
  type Scalar,
} from './types.js';
export { validateFilter, type FilterValidation } from './validate.js';
export { readQueryFilters, type QueryFilterRules, type QueryFilters } from './query-filters.js';
export { compileFilter, type CompiledCondition, type CompiledFilter, type Test, type TimeRange } from './compile.js';
export {
  evaluateFilter,
  matchesFilter,
  testValue,
  itemsOf,
  countOf,
  hasValue,
  inRange,
  type ValueGetter,
} from './evaluate.js';
export { DATE_ITEM_GLOBS, DAY_MS, parseDateItem, startOfUtcDay } from './dates.js';
