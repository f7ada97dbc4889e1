import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EXPORTED_OBJECTS } from '../../../src/lib/enums.js';
import { EXPORT_SOURCES } from '../../../src/modules/exports/export-sources.rules.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const API_DOC = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

/** The Exports section of docs/api.md: what it promises per exported object is what the code does. */
describe('the Exports section of docs/api.md', () => {
  const start = API_DOC.indexOf('\n## Exports\n');
  const section = API_DOC.slice(start, API_DOC.indexOf('\n## ', start + 1));
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

  it('has one row per exported object with its table, fields, defaults and orders', () => {
    const rows = section.split('\n').filter((line) => /^\| `[a-z_]+` \| `[a-z_]+` \|/.test(line));
    assert.deepEqual(rows.map((row) => names(row.split('|')[1] as string)[0]).sort(), [...EXPORTED_OBJECTS].sort());
    for (const row of rows) {
      const [, object, table, fields, defaults, orders] = row.split('|').map((cell) => cell.trim());
      const source = EXPORT_SOURCES[names(object as string)[0] as keyof typeof EXPORT_SOURCES];
      assert.deepEqual(
        {
          table: names(table as string),
          fields: names(fields as string),
          defaults: names(defaults as string),
          orders: names(orders as string),
        },
        {
          table: [source.table],
          fields: [...Object.keys(source.fields), ...(source.metadata ? ['metadata.<key>'] : [])],
          defaults: [...source.defaults],
          orders: Object.keys(source.orders),
        },
        object,
      );
    }
  });

  it('lists the export endpoints (docs/api.md) and the command (README.md)', () => {
    for (const line of [
      '| POST | `/v1/exports` |',
      '| GET | `/v1/exports` |',
      '| GET | `/v1/exports/{id}` |',
      '| DELETE | `/v1/exports/{id}` |',
      '| GET | `/v1/exports/{id}/download` |',
    ]) {
      assert.ok(API_DOC.includes(line), line);
    }
    assert.ok(README.includes('| `promo export <type>'), 'promo export <type>');
  });
});
