/**
 * CSV cells and lines (RFC 4180): a cell holding a comma, a double quote, a CR or a LF is
 * quoted, with its quotes doubled; lines end in CRLF, as the RFC and spreadsheet programs
 * expect. Objects and arrays are written as their JSON text; null and undefined as empty.
 */
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: readonly unknown[]): string => `${values.map(csvCell).join(',')}\r\n`;

/**
 * The columns of an imported CSV row (docs/api.md "CSV imports"): a header is matched
 * to a standard field case-insensitively, with spaces and dashes read as underscores
 * ("Source_id", "source id", "Address_Postal_Code"); any other column is a metadata key, named
 * as written. Empty cells are left out, as if the column were absent.
 */
export const columnName = (header: string): string =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

export interface SortedColumns {
  /** Standard fields by their field name (the values of `standard`). */
  fields: Record<string, string>;
  metadata: Record<string, string>;
}

export function sortColumns(record: Record<string, string>, standard: Readonly<Record<string, string>>): SortedColumns {
  const fields: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [header, value] of Object.entries(record)) {
    if (value === undefined || value === '') continue;
    const field = standard[columnName(header)];
    if (field !== undefined) fields[field] = value;
    else if (header.trim() !== '') metadata[header.trim()] = value;
  }
  return { fields, metadata };
}

/** A numeric cell as a number (the schema then checks it is an integer, in range...); else the text, which the schema refuses. */
export const numberCell = (value: string | undefined): number | string | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(n) ? n : value;
};
