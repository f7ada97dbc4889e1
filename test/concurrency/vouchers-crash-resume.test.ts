import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { spawnServe, type SpawnedServer } from '../support/cli.js';
import { freshDbFile } from '../support/db.js';
import { sqliteOnly } from '../support/engine.js';

const COUNT = 100_000;
const ENV = { PROMO_APP_ID: 'crash-app', PROMO_APP_TOKEN: 'crash-token' };
const HEADERS = {
  'X-App-Id': ENV.PROMO_APP_ID,
  'X-App-Token': ENV.PROMO_APP_TOKEN,
  'Content-Type': 'application/json',
};

interface JobAnswer {
  status: string;
  operation_status?: string;
  progress: number;
  result?: unknown;
}

async function call<T>(server: SpawnedServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

function inspect(file: string) {
  const sqlite = openSqlite(file);
  try {
    const job = sqlite.prepare('SELECT status, cursor, done_count, lease_owner FROM async_actions').get() as {
      status: string;
      cursor: number;
      done_count: number;
      lease_owner: string | null;
    };
    const vouchers = sqlite
      .prepare('SELECT count(*) AS n, count(DISTINCT code) AS distinct_codes FROM vouchers')
      .get() as { n: number; distinct_codes: number };
    const counted = (
      sqlite.prepare("SELECT vouchers_count FROM campaigns WHERE name = 'Crash'").get() as { vouchers_count: number }
    ).vouchers_count;
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    return { job, vouchers, counted, integrity };
  } finally {
    sqlite.close();
  }
}

describe(
  'a generation survives SIGKILL',
  sqliteOnly(
    "reads the killed file with openSqlite and its integrity_check (a job SIGKILLed on PostgreSQL and finished by another server: the PostgreSQL job host's tests)",
  ),
  () => {
    it('resumes after a crash and ends DONE with exactly the requested codes, all unique, and an intact file', async () => {
      const file = freshDbFile();
      const first = await spawnServe(['--db', file, '--workers', '2'], ENV);
      await call(first, 'POST', '/v1/campaigns', {
        name: 'Crash',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
      });
      const { async_action_id: id } = await call<{ async_action_id: string }>(
        first,
        'POST',
        `/v1/campaigns/Crash/vouchers?vouchers_count=${COUNT}`,
        {},
      );
      for (let progress = 0; progress < 10; ) {
        await new Promise((r) => setTimeout(r, 20));
        progress = (await call<JobAnswer>(first, 'GET', `/v1/async-actions/${id}`)).progress;
        assert.ok(progress < 90, 'the job ran too fast to be killed in the middle');
      }
      assert.equal(await first.stop('SIGKILL'), null);

      // What the crash left: a job in progress whose cursor is exactly what was written.
      const crashed = inspect(file);
      assert.equal(crashed.job.status, 'IN_PROGRESS');
      assert.ok(crashed.job.cursor > 0 && crashed.job.cursor < COUNT, `cursor ${crashed.job.cursor}`);
      assert.deepEqual(
        [crashed.vouchers.n, crashed.job.done_count, crashed.counted],
        [crashed.job.cursor, crashed.job.cursor, crashed.job.cursor],
      );
      assert.equal(crashed.integrity, 'ok');

      // The dead process's lease is taken over at once by the next server on the file.
      const second = await spawnServe(['--db', file, '--workers', '2'], ENV);
      try {
        let job: JobAnswer;
        const deadline = Date.now() + 60_000;
        do {
          await new Promise((r) => setTimeout(r, 50));
          job = await call<JobAnswer>(second, 'GET', `/v1/async-actions/${id}`);
        } while (job.status !== 'DONE' && job.status !== 'FAILED' && Date.now() < deadline);
        assert.deepEqual(
          [job.status, job.operation_status, job.progress, job.result],
          ['DONE', 'SUCCESS', 100, { message: `Generated ${COUNT} vouchers.`, done_count: COUNT }],
        );
      } finally {
        assert.equal(await second.stop('SIGTERM'), 0);
      }
      const after = inspect(file);
      assert.deepEqual(after, {
        job: { status: 'DONE', cursor: COUNT, done_count: COUNT, lease_owner: null },
        vouchers: { n: COUNT, distinct_codes: COUNT },
        counted: COUNT,
        integrity: 'ok',
      });
    });
  },
);
