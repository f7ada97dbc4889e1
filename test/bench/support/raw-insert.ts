/**
 * The raw insert loop the generation benches compare against: a better-sqlite3 prepared-insert
 * loop of `count` random codes into the real schema (a fresh file from the same migrations, the
 * same pragmas as a worker's connection, the same bound columns as the worker's rows, codes and
 * ids drawn before the clock starts, one transaction). Answers rows/s.
 */
import { openSqlite } from '../../../src/db/sqlite/connect.js';
import { ALPHANUMERIC, codeGenerator, codeTemplate, type CodeTemplate } from '../../../src/engine/codes/index.js';
import { freshDbFile } from '../../support/db.js';

const DISCOUNT = { type: 'PERCENT', percent_off: 10 };
const template = (codeTemplate({ length: 8 }) as { template: CodeTemplate }).template;
const idTemplate: CodeTemplate = {
  prefix: 'v_',
  postfix: '',
  pattern: '#'.repeat(16),
  charset: Array.from(ALPHANUMERIC),
};

/** The raw loop: what the hardware gives for these rows without any of our machinery. */
export function rawInsertRate(count: number): number {
  const sqlite = openSqlite(freshDbFile(), { synchronous: 'NORMAL' });
  sqlite.pragma('cache_size = -65536');
  sqlite
    .prepare(`INSERT INTO campaigns (id, name, campaign_type, type, voucher, creation_status, vouchers_generation_status, created_at)
      VALUES ('camp_raw', 'raw', 'DISCOUNT_COUPONS', 'AUTO_UPDATE', '{}', 'DONE', 'DONE', ?)`)
    .run(new Date().toISOString());
  const nextCode = codeGenerator(template);
  const nextId = codeGenerator(idTemplate);
  const codes = Array.from({ length: count }, nextCode);
  const ids = Array.from({ length: count }, nextId);
  const insert =
    sqlite.prepare(`INSERT INTO vouchers (id, code, campaign_id, type, discount, active, metadata, is_referral_code,
    redeemed_quantity, redeemed_points, publish_count, created_at) VALUES (?, ?, 'camp_raw', 'DISCOUNT_VOUCHER', ?, 1, '{}', 0, 0, 0, 0, ?)`);
  const discount = JSON.stringify(DISCOUNT);
  const now = new Date().toISOString();
  const started = performance.now();
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(ids[i], codes[i], discount, now);
  })();
  const seconds = (performance.now() - started) / 1000;
  const inserted = (sqlite.prepare('SELECT count(*) AS n FROM vouchers').get() as { n: number }).n;
  sqlite.close();
  if (inserted !== count) throw new Error(`raw loop inserted ${inserted} of ${count} (a duplicate random code?)`);
  return count / seconds;
}

/**
 * Runs `served` between two raw loops (the mean is the baseline), so a change in the
 * machine's load during the run shows in both figures rather than only in one.
 */
export async function betweenRawLoops<T>(
  count: number,
  served: () => Promise<T>,
): Promise<{ served: T; raw: number; runs: number[] }> {
  const before = rawInsertRate(count);
  const result = await served();
  const after = rawInsertRate(count);
  return { served: result, raw: (before + after) / 2, runs: [Math.round(before), Math.round(after)] };
}
