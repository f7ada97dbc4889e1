import { sql, type SqlBool } from 'kysely';
import type { FilterTerms } from './collection-filter-terms.repository.js';
import {
  and,
  FALSE,
  NO_NUMBER,
  NO_TEXT,
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
  return {
    some: (predicate) => predicate(item),
    count: sql`(CASE WHEN ${value} IS NOT NULL THEN 1 ELSE 0 END)`,
    present,
  };
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
    { value: NO_TEXT, number: value, isText: FALSE, isNumber: notNull(value), isTrue: FALSE, isFalse: FALSE },
    notNull(value),
  );

const dateColumn = (value: Sql): Source =>
  columnSource(value, { ...textItem(value, notNull(value)), canonicalDate: true }, notNull(value));

/** A product's attribute names (a JSON array) or the names a SKU sets (keys of a JSON object). */
function attributesSource(kind: ArmKind, terms: FilterTerms): Source {
  const names = terms.attributeNames(kind, col(kind, 'attributes'));
  const value = sql.ref(kind === 'product' ? 'je.value' : 'je.key');
  const count = sql`(SELECT count(*) FROM ${names})`;
  return {
    some: (predicate) => sql<SqlBool>`EXISTS (SELECT 1 FROM ${names} WHERE ${predicate(textItem(value, TRUE))})`,
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
export function catalogSource(kind: ArmKind, field: string, terms: FilterTerms): Source {
  if (field.startsWith('metadata.')) return terms.jsonKey(col(kind, 'metadata'), field.slice('metadata.'.length));
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
      // A typed literal (a bare parameter has no type PostgreSQL can infer).
      return textColumn(sql`CAST(${sql.lit(kind)} AS text)`);
    case 'attributes':
      return attributesSource(kind, terms);
    case 'skus':
      return skusSource(kind);
    case 'image_url':
      return textColumn(col(kind, field));
    default: // id, source_id
      return textColumn(col(kind, field), true);
  }
}
