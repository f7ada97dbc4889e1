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
