import { fieldCatalog, validateFilter, type FieldCatalog, type Filter } from '../../engine/conditions/index.js';
import type { ExportedObject } from '../../lib/enums.js';
import { AppError } from '../../lib/errors.js';
import { isPlainObject } from '../../lib/fields.js';
import { EXPORT_SOURCES, type ExportSource } from './export-sources.rules.js';
import type { CreateExportBody } from './exports.schemas.js';

/** An export's parameters as answered, and what its job reads. */
export interface ExportParameters {
  order?: string;
  fields: string[];
  filters?: Record<string, unknown>;
  response_format?: string;
}

/** The job's plan: the fields in CSV order, the order's column and direction, the filter. */
export interface ExportPlan {
  exported_object: ExportedObject;
  fields: string[];
  /** null: the row's seq (the order of insertion). */
  orderColumn: string | null;
  descending: boolean;
  filter: Filter | null;
}

const refuse = (details: string): AppError => new AppError('invalid_export_params', details);

const catalogOf = (source: ExportSource): FieldCatalog =>
  fieldCatalog(
    Object.fromEntries(Object.entries(source.fields).map(([name, field]) => [name, field.kind])),
    source.metadata ? { 'metadata.': 'any' } : {},
  );

const knownField = (source: ExportSource, field: string): boolean =>
  Object.hasOwn(source.fields, field) || (source.metadata !== undefined && /^metadata\.[^"\\]+$/.test(field));

function readFields(source: ExportSource, given: readonly string[] | null | undefined): string[] {
  if (!given || given.length === 0) return [...source.defaults];
  const unknown = given.filter((field) => !knownField(source, field));
  if (unknown.length > 0) {
    const metadata = source.metadata ? ', metadata.<key>' : '';
    throw refuse(`Unknown fields: ${unknown.join(', ')}; allowed: ${Object.keys(source.fields).join(', ')}${metadata}`);
  }
  const twice = given.filter((field, i) => given.indexOf(field) !== i);
  if (twice.length > 0) throw refuse(`Fields named twice: ${[...new Set(twice)].join(', ')}`);
  return [...given];
}

function readOrder(
  source: ExportSource,
  order: string | null | undefined,
): Pick<ExportPlan, 'orderColumn' | 'descending'> {
  if (!order) return { orderColumn: null, descending: false };
  const descending = order.startsWith('-');
  const column = source.orders[descending ? order.slice(1) : order];
  if (column === undefined) {
    const allowed = Object.keys(source.orders).flatMap((name) => [name, `-${name}`]);
    throw refuse(`parameters.order must be one of: ${allowed.join(', ')}`);
  }
  return { orderColumn: column, descending };
}

/** A single operand given bare (`"$is": "camp_1"`, as the reference's examples do) is read as a one-item list. */
const asLists = (conditions: unknown): unknown =>
  isPlainObject(conditions)
    ? Object.fromEntries(Object.entries(conditions).map(([op, value]) => [op, Array.isArray(value) ? value : [value]]))
    : conditions;

function readFilters(source: ExportSource, filters: Record<string, unknown>): Filter | null {
  const { junction, ...fields } = filters;
  if (Object.keys(fields).length === 0) return null;
  const normalized: Record<string, unknown> = { junction: typeof junction === 'string' ? junction : 'and' };
  for (const [field, value] of Object.entries(fields)) {
    normalized[field] =
      isPlainObject(value) && isPlainObject(value.conditions)
        ? { ...value, conditions: asLists(value.conditions) }
        : value;
  }
  const checked = validateFilter(normalized, catalogOf(source), 'parameters.filters');
  if (!checked.ok) throw refuse(checked.errors.join('; '));
  return checked.filter;
}

/**
 * The request's parameters against its exported object's source: 400 invalid_export_params
 * naming what does not fit. Fields default to the reference's defaults for the object.
 */
export function readExportRequest(body: CreateExportBody): { parameters: ExportParameters; plan: ExportPlan } {
  const exported = body.exported_object as ExportedObject;
  const source = EXPORT_SOURCES[exported];
  const given = body.parameters ?? {};
  const fields = readFields(source, given.fields);
  const plan: ExportPlan = {
    exported_object: exported,
    fields,
    ...readOrder(source, given.order),
    filter: given.filters ? readFilters(source, given.filters) : null,
  };
  const parameters: ExportParameters = {
    ...(given.order ? { order: given.order } : {}),
    fields,
    ...(given.filters ? { filters: given.filters } : {}),
    ...(given.response_format ? { response_format: given.response_format } : {}),
  };
  return { parameters, plan };
}
