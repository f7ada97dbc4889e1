import { numberCell, sortColumns } from '../../lib/csv.js';

/**
 * Products and SKUs CSV rows as the bodies POST /v1/products and POST /v1/products/{id}/skus
 * take (README "CSV imports"). Products: name (required), source_id, price (minor units, as in
 * the API), attributes (a comma-separated list in one cell: "color,size"), image_url. SKUs:
 * product_id (the product's id or source_id, required), source_id (required), sku, price,
 * currency, image_url, attributes (a JSON object, or the reference's {color:blue,size:M}).
 * Any other column is metadata. The bodies are then checked by the endpoints' schemas.
 */
const PRODUCT_COLUMNS: Readonly<Record<string, string>> = {
  name: 'name', source_id: 'source_id', price: 'price', attributes: 'attributes', image_url: 'image_url',
};

const SKU_COLUMNS: Readonly<Record<string, string>> = {
  product_id: 'product_id', source_id: 'source_id', sku: 'sku', price: 'price', currency: 'currency', image_url: 'image_url', attributes: 'attributes',
};

const listCell = (value: string): string[] => value.split(',').map((item) => item.trim()).filter((item) => item !== '');

/** `{"color":"blue"}`, or the reference's unquoted `{color:blue,size:M}`; anything else stays text (the schema refuses it). */
function objectCell(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    const inner = /^\s*\{(.*)\}\s*$/s.exec(value)?.[1];
    if (inner === undefined) return value;
    const pairs = inner.split(',').filter((pair) => pair.trim() !== '').map((pair) => pair.split(':').map((part) => part.trim()));
    if (pairs.some((pair) => pair.length !== 2 || pair[0] === '')) return value;
    return Object.fromEntries(pairs.map(([key, item]) => [key?.replace(/^"|"$/g, ''), item?.replace(/^"|"$/g, '')]));
  }
}

const withMetadata = (body: Record<string, unknown>, metadata: Record<string, string>) =>
  Object.keys(metadata).length > 0 ? { ...body, metadata } : body;

export function productFromCsv(record: Record<string, string>): Record<string, unknown> {
  const { fields, metadata } = sortColumns(record, PRODUCT_COLUMNS);
  const { price, attributes, ...rest } = fields;
  const body: Record<string, unknown> = { ...rest };
  if (price !== undefined) body.price = numberCell(price);
  if (attributes !== undefined) body.attributes = listCell(attributes);
  return withMetadata(body, metadata);
}

export function skuFromCsv(record: Record<string, string>): Record<string, unknown> {
  const { fields, metadata } = sortColumns(record, SKU_COLUMNS);
  const { price, attributes, ...rest } = fields;
  const body: Record<string, unknown> = { ...rest };
  if (price !== undefined) body.price = numberCell(price);
  if (attributes !== undefined) body.attributes = objectCell(attributes);
  return withMetadata(body, metadata);
}
