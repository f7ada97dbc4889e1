import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createDeps } from '../../src/app/deps.js';
import type { CheckpointReport } from '../../src/jobs/worker.js';
import { freshDbFile } from '../support/db.js';
import { testRunner } from '../support/jobs.js';

const size = (file: string): number => statSync(file).size;

/** 600 commits of 8 KB each: about 5 MB of WAL, past SQLite's default autocheckpoint of 1,000 pages. */
function writeManyCommits(sqlite: ReturnType<typeof createDeps>['sqlite']): void {
  sqlite.exec('CREATE TABLE filler (blob BLOB)');
  const insert = sqlite.prepare('INSERT INTO filler (blob) VALUES (randomblob(8192))');
  for (let i = 0; i < 600; i++) insert.run();
}

describe('checkpoints of a server whose API connection never checkpoints', () => {
  it('leaves the WAL to grow on the API connection, and a worker thread copies it back while no job runs', async () => {
    const file = freshDbFile();
    const deps = createDeps({ dbFile: file, walAutocheckpoint: 0 });
    const reports: CheckpointReport[] = [];
    try {
      const dbBefore = size(file);
      writeManyCommits(deps.sqlite);
      // No commit copied pages back: the database file kept its size, the WAL holds them all.
      assert.equal(size(file), dbBefore);
      assert.ok(size(`${file}-wal`) > 4.5 * 1024 * 1024, `WAL of ${size(`${file}-wal`)} bytes`);

      const runner = testRunner(deps, { idleCheckpoints: { everyMs: 20, onCheckpoint: (report) => reports.push(report) } });
      try {
        for (let i = 0; i < 250 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await runner.stop();
      }
      assert.equal(reports.length, 1);
      assert.equal(reports[0]?.truncated, true);
      assert.equal(size(`${file}-wal`), 0);
      assert.ok(size(file) > dbBefore + 4.5 * 1024 * 1024, `database of ${size(file)} bytes`);
      assert.equal((deps.sqlite.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n, 600);
    } finally {
      await deps.close();
    }
  });

  it('does not checkpoint a WAL smaller than its threshold', async () => {
    const file = freshDbFile();
    const deps = createDeps({ dbFile: file, walAutocheckpoint: 0 });
    const reports: CheckpointReport[] = [];
    try {
      deps.sqlite.exec('CREATE TABLE filler (blob BLOB); INSERT INTO filler (blob) VALUES (randomblob(8192))');
      const wal = size(`${file}-wal`);
      assert.ok(wal > 0);
      const runner = testRunner(deps, { idleCheckpoints: { everyMs: 20, onCheckpoint: (report) => reports.push(report) } });
      await new Promise((r) => setTimeout(r, 300));
      await runner.stop();
      assert.deepEqual(reports, []);
      assert.equal(size(`${file}-wal`), wal);
    } finally {
      await deps.close();
    }
  });
});
