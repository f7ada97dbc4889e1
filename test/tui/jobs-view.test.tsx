/** @jsxRuntime automatic */
/** @jsxImportSource react */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToString } from 'ink';
import { render } from 'ink-testing-library';
import type { JobView } from '../../src/jobs/jobs.presenter.js';
import { JobsApp, JobsTable } from '../../src/tui/jobs-view.js';
import { etaOf, formatEta, formatRate, progressBar, progressLine, rateOf } from '../../src/tui/progress-line.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');

function job(fields: Partial<JobView>): JobView {
  return {
    id: 'aa_0000000000000001',
    type: 'CAMPAIGN.VOUCHERS_GENERATE',
    status: 'IN_PROGRESS',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:10.000Z',
    request_id: 'v-1',
    processing_time: 10_000,
    progress: 25,
    object: 'async_action',
    total: 100_000,
    done_count: 25_000,
    failed_count: 0,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: null,
    ...fields,
  };
}

const running = job({});
const done = job({
  id: 'aa_0000000000000002',
  type: 'CAMPAIGN.VOUCHERS_IMPORT',
  status: 'DONE',
  operation_status: 'FAILED',
  progress: 100,
  done_count: 8,
  failed_count: 2,
  finished_at: '2025-01-01T00:00:04.000Z',
  result: { message: '8 voucher(s) imported successfully, 2 failed.' },
});
const queued = job({ id: 'aa_0000000000000003', status: 'ENQUEUED', progress: 0, done_count: 0, started_at: null });

describe('progress figures', () => {
  const cases: Array<{ name: string; job: JobView; rate: string; eta: string }> = [
    { name: 'running: 25,000 in 10 s, a quarter done', job: running, rate: '2,500/s', eta: '30s' },
    { name: 'ended: its rate over its run, no ETA', job: done, rate: '3/s', eta: '-' },
    { name: 'not started', job: queued, rate: '-', eta: '-' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(formatRate(rateOf(c.job, T0 + 10_000)), c.rate);
      assert.equal(formatEta(etaOf(c.job, T0 + 10_000)), c.eta);
    });
  }

  it('formats bars and durations', () => {
    assert.deepEqual(
      [progressBar(0, 4), progressBar(50, 4), progressBar(100, 4), progressBar(130, 4)],
      ['░░░░', '██░░', '████', '████'],
    );
    assert.deepEqual([formatEta(59.4), formatEta(61), formatEta(3_700)], ['59s', '1m01s', '1h01m']);
    assert.equal(
      progressLine(running, T0 + 10_000),
      'CAMPAIGN.VOUCHERS_GENERATE █████░░░░░░░░░░░░░░░  25%  25000 done, 0 failed  2,500/s  eta 30s',
    );
  });
});

const frame = (lines: string[]) => lines.join('\n');
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** Ink draws at most ~30 frames a second: wait until the frame shows what is expected. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`the view never showed ${what}`);
    await settle();
  }
}

describe('the jobs view', () => {
  it('draws the table, one row per job, the first selected', () => {
    const out = renderToString(<JobsTable jobs={[running, done, queued]} nowMs={T0 + 10_000} width={140} />, {
      columns: 140,
    });
    assert.equal(
      out,
      frame([
        'promo jobs: 3 async action(s)',
        '  ID                   TYPE                       STATUS      PROGRESS                       DONE  FAILED       RATE ETA',
        '› aa_0000000000000001  CAMPAIGN.VOUCHERS_GENERATE IN_PROGRESS █████░░░░░░░░░░░░░░░  25%     25000       0    2,500/s 30s',
        '  aa_0000000000000002  CAMPAIGN.VOUCHERS_IMPORT   DONE        ████████████████████ 100%         8       2        3/s -',
        '  aa_0000000000000003  CAMPAIGN.VOUCHERS_GENERATE ENQUEUED    ░░░░░░░░░░░░░░░░░░░░   0%         0       0          - -',
      ]),
    );
  });

  it('keeps the done and failed counts, the rate and the ETA at 80 columns: the widest columns go first', () => {
    const at = (width: number) =>
      renderToString(<JobsTable jobs={[running, done]} nowMs={T0 + 10_000} width={width} />, { columns: width });
    assert.equal(
      at(80),
      frame([
        'promo jobs: 2 async action(s)',
        '  ID                   STATUS         %      DONE  FAILED       RATE ETA',
        '› aa_0000000000000001  IN_PROGRESS  25%     25000       0    2,500/s 30s',
        '  aa_0000000000000002  DONE        100%         8       2        3/s -',
      ]),
    );
    // Wide enough for the bar, not for the type as well.
    assert.equal(
      at(100),
      frame([
        'promo jobs: 2 async action(s)',
        '  ID                   STATUS      PROGRESS                       DONE  FAILED       RATE ETA',
        '› aa_0000000000000001  IN_PROGRESS █████░░░░░░░░░░░░░░░  25%     25000       0    2,500/s 30s',
        '  aa_0000000000000002  DONE        ████████████████████ 100%         8       2        3/s -',
      ]),
    );
  });

  it('lays the live view out for an 80-column terminal, and again when it is resized', async () => {
    // Jobs whose figures do not move with the clock (the view reads the real one).
    const app = render(<JobsApp load={async () => [done, queued]} refreshMs={20} />);
    try {
      const rows = () => app.lastFrame()?.split('\n').slice(1, 4).join('\n');
      await until(
        () => rows()?.includes('░') === true && rows()?.includes('CAMPAIGN.VOUCHERS_IMPORT') === false,
        'the 100-column layout',
      );
      Object.defineProperty(app.stdout, 'columns', { get: () => 80 });
      app.stdout.emit('resize');
      await until(() => !(rows()?.includes('░') ?? true), 'the 80-column layout');
      assert.equal(
        rows(),
        frame([
          '  ID                   STATUS         %      DONE  FAILED       RATE ETA',
          '› aa_0000000000000002  DONE        100%         8       2        3/s -',
          '  aa_0000000000000003  ENQUEUED      0%         0       0          - -',
        ]),
      );
    } finally {
      app.unmount();
    }
  });

  it('says so when there are no jobs, and truncates rather than wraps in a narrow terminal', () => {
    assert.equal(
      renderToString(<JobsTable jobs={[]} nowMs={T0} width={140} />, { columns: 140 }),
      frame([
        'promo jobs: 0 async action(s)',
        '  ID                   TYPE                       STATUS      PROGRESS                       DONE  FAILED       RATE ETA',
        '  (no jobs yet)',
      ]),
    );
    const narrow = renderToString(<JobsTable jobs={[running]} nowMs={T0} width={40} />, { columns: 40 }).split('\n');
    assert.equal(narrow.length, 3);
    assert.ok(narrow.every((line) => line.length <= 40));
  });

  it('reloads, moves the selection with the arrows, shows the result on enter, and quits on q', async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      return [running, done, queued];
    };
    const app = render(<JobsApp load={load} refreshMs={20} />);
    try {
      const rowOf = (id: string) =>
        app
          .lastFrame()
          ?.split('\n')
          .find((l) => l.includes(id)) ?? '';
      await until(() => rowOf(running.id).startsWith('› '), 'the first job selected');
      app.stdin.write('\u001B[B'); // down
      await until(
        () => rowOf(done.id).startsWith('› ') && rowOf(running.id).startsWith('  '),
        'the second job selected',
      );
      app.stdin.write('\r');
      await until(
        () =>
          app
            .lastFrame()
            ?.includes(
              'aa_0000000000000002 result\n{\n  "message": "8 voucher(s) imported successfully, 2 failed."\n}',
            ) === true,
        'its result',
      );
      app.stdin.write('k');
      await until(
        () =>
          rowOf(running.id).startsWith('› ') &&
          app.lastFrame()?.includes('aa_0000000000000001 result\n(no result yet)') === true,
        'the first job again, without a result',
      );
      assert.ok(app.lastFrame()?.endsWith('↑/↓ select · enter result · c cancel · q/esc quit'));
      assert.ok(loads >= 2, `the view reloaded ${loads} time(s)`);
      app.stdin.write('q');
      // q ends the view: it stops reloading (every 20 ms while it runs).
      let seen = loads;
      let since = Date.now();
      await until(() => {
        if (loads !== seen) [seen, since] = [loads, Date.now()];
        return Date.now() - since >= 150;
      }, 'the view stop after q');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(loads, seen, 'the view kept reloading after q');
    } finally {
      app.unmount();
    }
  });

  it('cancels the selected job on c and y, keeps it on c and any other key, and says so for an ended job', async () => {
    const canceled: string[] = [];
    const cancel = async (id: string) => {
      canceled.push(id);
      return 'Canceled by the operator after 25000 of 100000 items.';
    };
    const app = render(<JobsApp load={async () => [running, done, queued]} cancel={cancel} refreshMs={20} />);
    const notice = () => app.lastFrame()?.split('\n').at(-2) ?? '';
    try {
      await until(() => app.lastFrame()?.includes(running.id) === true, 'the jobs');
      app.stdin.write('c');
      await until(
        () => notice() === `Cancel ${running.id} (CAMPAIGN.VOUCHERS_GENERATE)? y cancels it, any other key keeps it`,
        'the confirmation',
      );
      app.stdin.write('n');
      await until(() => notice() === `${running.id} kept`, 'the job kept');
      assert.deepEqual(canceled, []);
      app.stdin.write('c');
      await until(() => notice().startsWith(`Cancel ${running.id}`), 'the confirmation again');
      app.stdin.write('y');
      await until(
        () => notice() === `${running.id}: Canceled by the operator after 25000 of 100000 items.`,
        'how it ended',
      );
      assert.deepEqual(canceled, [running.id]);
      app.stdin.write('j');
      await until(
        () =>
          (
            app
              .lastFrame()
              ?.split('\n')
              .find((l) => l.includes(done.id)) ?? ''
          ).startsWith('› '),
        'the ended job selected',
      );
      app.stdin.write('c');
      await until(() => notice() === `${done.id} already ended DONE`, 'the refusal');
      assert.deepEqual(canceled, [running.id]);
    } finally {
      app.unmount();
    }
  });

  it('quits on esc', async () => {
    let loads = 0;
    const app = render(<JobsApp load={async () => (loads++, [running])} refreshMs={20} />);
    try {
      await until(() => loads >= 2, 'a reload');
      app.stdin.write('\u001B');
      await new Promise((resolve) => setTimeout(resolve, 150));
      const seen = loads;
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(loads, seen, 'the view kept reloading after esc');
    } finally {
      app.unmount();
    }
  });
});
