/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { JobView } from '../jobs/jobs.presenter.js';
import { etaOf, formatEta, formatRate, progressBar, rateOf } from './progress-line.js';

const STATUS_COLOR: Record<JobView['status'], string> = { ENQUEUED: 'gray', IN_PROGRESS: 'cyan', DONE: 'green', FAILED: 'red' };

const COLUMNS = [
  { title: 'ID', width: 21 },
  { title: 'TYPE', width: 27 },
  { title: 'STATUS', width: 12 },
  { title: 'PROGRESS', width: 27 },
  { title: 'DONE', width: 9 },
  { title: 'FAILED', width: 8 },
  { title: 'RATE', width: 11 },
  { title: 'ETA', width: 7 },
] as const;

const cell = (text: string, i: number, right = false): string => {
  const width = COLUMNS[i]?.width ?? 10;
  return right ? text.padStart(width - 1).slice(0, width - 1) + ' ' : text.padEnd(width).slice(0, width);
};

function JobRow({ job, selected, nowMs }: { job: JobView; selected: boolean; nowMs: number }) {
  const head = `${selected ? '› ' : '  '}${cell(job.id, 0)}${cell(job.type, 1)}`;
  const tail = [
    cell(`${progressBar(job.progress)} ${String(job.progress).padStart(3)}%`, 3),
    cell(String(job.done_count), 4, true),
    cell(String(job.failed_count), 5, true),
    cell(formatRate(rateOf(job, nowMs)), 6, true),
    cell(formatEta(etaOf(job, nowMs)), 7),
  ].join('');
  return (
    <Text wrap="truncate">
      <Text color={selected ? 'yellow' : undefined}>{head}</Text>
      <Text color={STATUS_COLOR[job.status]}>{cell(job.status, 2)}</Text>
      {tail}
    </Text>
  );
}

/** The table of async actions, one frame: what `promo jobs --once` prints. */
export function JobsTable({ jobs, selected = 0, nowMs, showResult = false }: { jobs: JobView[]; selected?: number; nowMs: number; showResult?: boolean }) {
  const current = jobs[selected];
  return (
    <Box flexDirection="column">
      <Text bold>promo jobs: {jobs.length} async action(s)</Text>
      <Text dimColor wrap="truncate">
        {'  '}
        {COLUMNS.map((c, i) => cell(c.title, i, i >= 4 && i <= 6)).join('')}
      </Text>
      {jobs.length === 0 ? <Text dimColor>  (no jobs yet)</Text> : null}
      {jobs.map((job, i) => (
        <JobRow key={job.id} job={job} selected={i === selected} nowMs={nowMs} />
      ))}
      {showResult && current ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{current.id} result</Text>
          <Text>{current.result === undefined ? '(no result yet)' : JSON.stringify(current.result, null, 2)}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

/** Reloads the list every `refreshMs` while the view is mounted. */
function useJobs(load: () => Promise<JobView[]>, refreshMs: number): { jobs: JobView[]; nowMs: number } {
  const [jobs, setJobs] = useState<JobView[]>([]);
  const [nowMs, setNowMs] = useState(Date.now());
  useEffect(() => {
    let alive = true;
    const refresh = async () => {
      const next = await load();
      if (!alive) return;
      setJobs(next);
      setNowMs(Date.now());
    };
    void refresh();
    const timer = setInterval(() => void refresh(), refreshMs);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [load, refreshMs]);
  return { jobs, nowMs };
}

const isOpen = (job: JobView): boolean => job.status === 'ENQUEUED' || job.status === 'IN_PROGRESS';

/**
 * `c` on the selected job asks for a confirmation; `y` cancels it (through `cancel`, which
 * resolves with how the job ended), any other key keeps it. The notice line says what happened.
 */
function useCancel(cancel: ((id: string) => Promise<string>) | undefined) {
  const [confirming, setConfirming] = useState<JobView | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  // Keys may arrive before the next render: the job awaiting an answer is read from a ref.
  const pending = useRef<JobView | undefined>(undefined);
  const confirm = (job: JobView | undefined) => {
    pending.current = job;
    setConfirming(job);
  };
  const ask = (job: JobView | undefined) => {
    if (!job || !cancel) return;
    if (isOpen(job)) confirm(job);
    else setNotice(`${job.id} already ended ${job.status}`);
  };
  const answer = (yes: boolean) => {
    const job = pending.current as JobView;
    confirm(undefined);
    if (!yes) return setNotice(`${job.id} kept`);
    setNotice(`Canceling ${job.id}…`);
    (cancel as (id: string) => Promise<string>)(job.id).then(
      (message) => setNotice(`${job.id}: ${message}`),
      (error: unknown) => setNotice(`${job.id}: ${(error as { details?: string; message?: string }).details ?? (error as Error).message}`),
    );
  };
  return { confirming, notice, ask, answer, isAsking: () => pending.current !== undefined };
}

const HELP = '↑/↓ select · enter result · c cancel · q/esc quit';

/** The live view: reloads the list, ↑/↓ (or k/j) select, enter shows the result, c cancels, q or esc quits. */
export function JobsApp({ load, cancel, refreshMs = 500 }: { load: () => Promise<JobView[]>; cancel?: (id: string) => Promise<string>; refreshMs?: number }) {
  const { exit } = useApp();
  const { jobs, nowMs } = useJobs(load, refreshMs);
  const [selected, setSelected] = useState(0);
  const [showResult, setShowResult] = useState(false);
  const canceling = useCancel(cancel);
  const shown = Math.min(selected, Math.max(0, jobs.length - 1));
  // The input handler may run before it is re-registered with this render's closure: it reads
  // the jobs and the selection from refs, never from a stale render.
  const current = useRef({ jobs, shown });
  current.current = { jobs, shown };

  useInput((input, key) => {
    if (canceling.isAsking()) return canceling.answer(input === 'y');
    if (input === 'q' || key.escape) exit();
    else if (key.upArrow || input === 'k') setSelected((s) => Math.max(0, s - 1));
    else if (key.downArrow || input === 'j') setSelected((s) => Math.min(Math.max(0, current.current.jobs.length - 1), s + 1));
    else if (key.return) setShowResult((v) => !v);
    else if (input === 'c') canceling.ask(current.current.jobs[current.current.shown]);
  });

  const prompt = canceling.confirming ? `Cancel ${canceling.confirming.id} (${canceling.confirming.type})? y cancels it, any other key keeps it` : undefined;
  return (
    <Box flexDirection="column">
      <JobsTable jobs={jobs} selected={shown} nowMs={nowMs} showResult={showResult} />
      {prompt || canceling.notice ? <Text color={prompt ? 'yellow' : undefined}>{prompt ?? canceling.notice}</Text> : null}
      <Text dimColor>{HELP}</Text>
    </Box>
  );
}
