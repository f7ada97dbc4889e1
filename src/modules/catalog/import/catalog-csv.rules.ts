import { numberCell, sortColumns } from '../../../lib/csv.js';

/**
 * Products and SKUs CSV rows as the bodies POST /v1/products and POST /v1/products/{id}/skus
 * take (docs/api.md "CSV imports"). Products: name (required), source_id, price (minor units, as in
 * the API), attributes (a comma-separated list in one cell: "color,size"), image_url. SKUs:
 * product_id (the product's id or source_id, required), source_id (required), sku, price,
 * currency, image_url, attributes (a JSON object, or the reference's {color:blue,size:M}).
 * Any other column is metadata. The bodies are then checked by the endpoints' schemas.
 */
const PRODUCT_COLUMNS: Readonly<Record<string, string>> = {
  name: 'name',
  source_id: 'source_id',
  price: 'price',
  attributes: 'attributes',
  image_url: 'image_url',
};

const SKU_COLUMNS: Readonly<Record<string, string>> = {
  product_id: 'product_id',
  source_id: 'source_id',
  sku: 'sku',
  price: 'price',
  currency: 'currency',
  image_url: 'image_url',
  attributes: 'attributes',
};

const listCell = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** `{"color":"blue"}`, or the reference's unquoted `{color:blue,size:M}`; anything else stays text (the schema refuses it). */
function objectCell(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    const inner = /^\s*\{(.*)\}\s*$/s.exec(value)?.[1];
    if (inner === undefined) return value;
    const pairs = inner
      .split(',')
      .filter((pair) => pair.trim() !== '')
      .map((pair) => pair.split(':').map((part) => part.trim()));
    if (pairs.some((pair) => pair.length !== 2 || pair[0] === '')) return value;
    return Object.fromEntries(pairs.map(([key, item]) => [key?.replace(/^"|"$/g, ''), item?.replace(/^"|"$/g, '')]));
  }
}

type CellReaders = Readonly<Record<string, (cell: string) => unknown>>;

/** The body of a row: each standard field's cell (read by its reader, else as text), and the other columns as metadata. */
function bodyFromCsv(
  record: Record<string, string>,
  columns: Readonly<Record<string, string>>,
  readers: CellReaders,
): Record<string, unknown> {
  const { fields, metadata } = sortColumns(record, columns);
  const body: Record<string, unknown> = Object.fromEntries(
    Object.entries(fields).map(([field, cell]) => [field, readers[field]?.(cell) ?? cell]),
  );
  return Object.keys(metadata).length > 0 ? { ...body, metadata } : body;
}

export const productFromCsv = (record: Record<string, string>) =>
  bodyFromCsv(record, PRODUCT_COLUMNS, { price: numberCell, attributes: listCell });

export const skuFromCsv = (record: Record<string, string>) =>
  bodyFromCsv(record, SKU_COLUMNS, { price: numberCell, attributes: objectCell });
