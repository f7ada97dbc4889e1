import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Deps } from '../../../src/app/deps.js';
import type { PortionContext, PortionJob } from '../../../src/jobs/job-step.js';
import { internalActor } from '../../../src/lib/actor.js';
import { fixedClock } from '../../../src/lib/clock.js';
import { exportStep, type ExportPayload } from '../../../src/modules/exports/export.job.js';
import { createExport } from '../../../src/modules/exports/exports.service.js';
import { sqliteOf } from '../../support/sqlite.js';
import { openTestDeps } from '../../support/engine.js';

const NOW = '2024-09-01T00:00:00.000Z';
const COUNT = 23;

/**
 * The EXPORT step portion by portion, on a real database: rows that tie on the order's column
 * (vouchers inserted in one instant), pages smaller than a tie, both directions, a portion that
 * rolled back after writing (the next one cuts the file back), and rows added after the request.
 */
describe('the EXPORT step', () => {
  let deps: Deps;
  before(async () => {
    deps = await openTestDeps({ clock: fixedClock(NOW) });
    const insert = sqliteOf(deps).prepare(
      "INSERT INTO vouchers (id, code, type, created_at) VALUES (?, ?, 'DISCOUNT_VOUCHER', ?)",
    );
    // Three instants, the middle one shared by most rows: pages of 4 fall inside its tie.
    for (let i = 0; i < COUNT; i += 1)
      insert.run(
        `v_${i}`,
        `CODE-${String(i).padStart(2, '0')}`,
        i === 0 ? '2024-01-01T00:00:00.000Z' : i < COUNT - 1 ? NOW : '2024-12-01T00:00:00.000Z',
      );
  });
  after(() => deps.close());

  /**
   * Creates an export and runs its job's step by hand, `size` rows a portion; `rollBack`
   * portions write (twice as many rows, as a portion before a slow one may), then roll back.
   */
  async function run(
    order: string,
    size: number,
    rollBack: Set<number> = new Set(),
    afterRollBack = () => {},
  ): Promise<{ csv: string; portions: number; rows: number }> {
    const created = await createExport(
      deps,
      { exported_object: 'voucher', parameters: { order, fields: ['code', 'created_at'] } },
      internalActor(),
    );
    const action = sqliteOf(deps)
      .prepare(
        'SELECT id, payload, total FROM async_actions WHERE id = (SELECT async_action_id FROM exports WHERE id = ?)',
      )
      .get(created.id) as { id: string; payload: string; total: number };
    const job: PortionJob<ExportPayload> = {
      id: action.id,
      type: 'EXPORT',
      payload: JSON.parse(action.payload) as ExportPayload,
      total: action.total,
      cursor: 0,
      done_count: 0,
      failed_count: 0,
    };
    sqliteOf(deps)
      .prepare("INSERT INTO vouchers (id, code, type, created_at) VALUES ('v_late', 'LATE', 'DISCOUNT_VOUCHER', ?)")
      .run(NOW);
    let portions = 0;
    for (;;) {
      portions += 1;
      const outcome = await deps.db
        .transaction()
        .execute(async (trx) => {
          const ctx: PortionContext = { trx, engine: deps.engine, now: NOW };
          const result = await exportStep.run(ctx, job, rollBack.has(portions) ? size * 2 : size);
          if (rollBack.has(portions)) throw new RolledBack();
          return result;
        })
        .catch((error: unknown) => (error instanceof RolledBack ? null : Promise.reject(error)));
      if (outcome === null) {
        afterRollBack();
        continue;
      }
      Object.assign(job, { cursor: outcome.cursor, done_count: job.done_count + outcome.done });
      if (outcome.finished) break;
    }
    sqliteOf(deps).prepare("DELETE FROM vouchers WHERE id = 'v_late'").run();
    return { csv: readFileSync(job.payload.file, 'utf8'), portions, rows: job.done_count };
  }

  const expected = (indexes: number[]) =>
    `code,created_at\r\n${indexes.map((i) => `CODE-${String(i).padStart(2, '0')},${i === 0 ? '2024-01-01T00:00:00.000Z' : i < COUNT - 1 ? NOW : '2024-12-01T00:00:00.000Z'}\r\n`).join('')}`;
  const ascending = Array.from({ length: COUNT }, (_, i) => i);

  it("walks ties on the order's column in seq order, a page at a time, each row once", async () => {
    assert.deepEqual(await run('created_at', 4), { csv: expected(ascending), portions: 6, rows: COUNT });
    assert.deepEqual(await run('-created_at', 5), {
      csv: expected([...ascending].reverse()),
      portions: 5,
      rows: COUNT,
    });
    assert.deepEqual(await run('-code', 100), { csv: expected([...ascending].reverse()), portions: 1, rows: COUNT });
  });

  it('cuts back what a rolled-back portion wrote, so a retried portion neither repeats nor skips a row', async () => {
    // A row the rolled-back portion wrote is deleted before the retry: what the file held past
    // the committed length must go, or the file would end in stale bytes.
    const deleted = [4, 11, 21];
    const result = await run('created_at', 3, new Set([2, 5, 9]), () =>
      sqliteOf(deps).prepare('DELETE FROM vouchers WHERE id = ?').run(`v_${deleted.shift()}`),
    );
    assert.deepEqual(result, {
      csv: expected(ascending.filter((i) => ![4, 11, 21].includes(i))),
      portions: 7 + 3,
      rows: COUNT - 3,
    });
  });
});

class RolledBack extends Error {}
