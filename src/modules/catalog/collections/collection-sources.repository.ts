import { sql, type SqlBool } from 'kysely';
import {
  and,
  FALSE,
  TRUE,
  textItem,
  type Bool,
  type Item,
  type Source,
  type Sql,
} from './collection-filter.repository.js';

/**
 * Where each filter field of the reference's product collection filter lives for a product row (alias `p`) and a SKU row
 * (alias `s`), mirroring catalogValue() in collection-fields.rules.ts:
 * - `id`, `source_id`, `image_url`, `price`, `created_at`, `updated_at`: the columns;
 * - `name`: a product's name, a SKU's `sku`;
 * - `product_id`: a product's own id, a SKU's product;
 * - `object`: `product` or `sku`;
 * - `attributes`: a product's attribute names, the names a SKU sets;
 * - `skus`: a product's SKU ids; a SKU has none;
 * - `metadata.<key>`: that key of the metadata object.
 */
export type ArmKind = 'product' | 'sku';

const alias = (kind: ArmKind) => (kind === 'product' ? 'p' : 's');
const col = (kind: ArmKind, name: string): Sql => sql.ref(`${alias(kind)}.${name}`);
const notNull = (value: Sql): Bool => sql<SqlBool>`${value} IS NOT NULL`;

/** A nullable column holding at most one item. */
function columnSource(value: Sql, item: Item, present: Bool): Source {
  return { some: (predicate) => predicate(item), count: sql`(${value} IS NOT NULL)`, present };
}

const textColumn = (value: Sql, indexedText = false): Source =>
  columnSource(
    value,
    { ...textItem(value, notNull(value)), indexedText },
    and([notNull(value), sql<SqlBool>`${value} <> ''`]),
  );

const numberColumn = (value: Sql): Source =>
  columnSource(
    value,
    { value, isText: FALSE, isNumber: notNull(value), isTrue: FALSE, isFalse: FALSE },
    notNull(value),
  );

const dateColumn = (value: Sql): Source =>
  columnSource(value, { ...textItem(value, notNull(value)), canonicalDate: true }, notNull(value));

/** One key of a JSON object column: an array's elements are its items; an object is one item. */
function jsonSource(doc: Sql, key: string): Source {
  const path = `$."${key}"`;
  const type = sql`json_type(${doc}, ${path})`;
  const je = (name: string): Sql => sql.ref(`je.${name}`);
  const item: Item = {
    value: je('value'),
    isText: sql<SqlBool>`${je('type')} = 'text'`,
    isNumber: sql<SqlBool>`${je('type')} IN ('integer', 'real')`,
    isTrue: sql<SqlBool>`${je('type')} = 'true'`,
    isFalse: sql<SqlBool>`${je('type')} = 'false'`,
  };
  return {
    // json_each over an object lists its members (text keys): those are not items.
    some: (predicate) =>
      sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${doc}, ${path}) AS je WHERE (je.key IS NULL OR typeof(je.key) = 'integer') AND ${predicate(item)})`,
    count: sql`(CASE WHEN ${type} IS NULL OR ${type} = 'null' THEN 0 WHEN ${type} = 'array' THEN json_array_length(${doc}, ${path}) ELSE 1 END)`,
    present: and([
      notNull(type),
      sql<SqlBool>`${type} <> 'null'`,
      sql<SqlBool>`NOT (${type} = 'text' AND json_extract(${doc}, ${path}) = '')`,
      sql<SqlBool>`NOT (${type} = 'array' AND json_array_length(${doc}, ${path}) = 0)`,
    ]),
  };
}

/** A product's attribute names (a JSON array) or the names a SKU sets (keys of a JSON object). */
function attributesSource(kind: ArmKind): Source {
  const doc = col(kind, 'attributes');
  const value = sql.ref(kind === 'product' ? 'je.value' : 'je.key');
  const count = sql`(SELECT count(*) FROM json_each(${doc}))`;
  return {
    some: (predicate) =>
      sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${doc}) AS je WHERE ${predicate(textItem(value, TRUE))})`,
    count,
    present: sql<SqlBool>`${count} > 0`,
  };
}

/** A product's SKU ids; a SKU has no `skus`. */
function skusSource(kind: ArmKind): Source {
  if (kind === 'sku') return { some: () => FALSE, count: sql`0`, present: FALSE };
  const count = sql`(SELECT count(*) FROM skus AS child WHERE child.product_id = p.id)`;
  return {
    some: (predicate) =>
      sql<SqlBool>`EXISTS (SELECT 1 FROM skus AS child WHERE child.product_id = p.id AND ${predicate(textItem(sql.ref('child.id'), TRUE))})`,
    count,
    present: sql<SqlBool>`${count} > 0`,
  };
}

/** The source of a (validated) filter field in a product or SKU row. */
export function catalogSource(kind: ArmKind, field: string): Source {
  if (field.startsWith('metadata.')) return jsonSource(col(kind, 'metadata'), field.slice('metadata.'.length));
  switch (field) {
    case 'price':
      return numberColumn(col(kind, 'price'));
    case 'created_at':
    case 'updated_at':
      return dateColumn(col(kind, field));
    case 'name':
      return textColumn(col(kind, kind === 'product' ? 'name' : 'sku'), true);
    case 'product_id':
      return textColumn(col(kind, kind === 'product' ? 'id' : 'product_id'), true);
    case 'object':
      return textColumn(sql.val(kind));
    case 'attributes':
      return attributesSource(kind);
    case 'skus':
      return skusSource(kind);
    case 'image_url':
      return textColumn(col(kind, field));
    default: // id, source_id
      return textColumn(col(kind, field), true);
  }
}
