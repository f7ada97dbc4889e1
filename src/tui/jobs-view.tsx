/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { JobView } from '../jobs/jobs.presenter.js';
import { etaOf, formatEta, formatRate, progressBar, rateOf } from './progress-line.js';

const STATUS_COLOR: Record<JobView['status'], string> = {
  ENQUEUED: 'gray',
  IN_PROGRESS: 'cyan',
  DONE: 'green',
  FAILED: 'red',
};

interface Column {
  title: string;
  width: number;
  /** Figures are right-aligned. */
  right?: boolean;
  /** A column that may go when the terminal is narrow; the id and the figures always stay. */
  droppable?: boolean;
  text(job: JobView, nowMs: number): string;
}

/** The percent is a column of its own, so the bar can go and the figure stay. */
const COLUMNS: Column[] = [
  { title: 'ID', width: 21, text: (job) => job.id },
  { title: 'TYPE', width: 27, droppable: true, text: (job) => job.type },
  { title: 'STATUS', width: 12, droppable: true, text: (job) => job.status },
  { title: 'PROGRESS', width: 21, droppable: true, text: (job) => progressBar(job.progress) },
  { title: '', width: 6, text: (job) => `${String(job.progress).padStart(3)}%` },
  { title: 'DONE', width: 9, right: true, text: (job) => String(job.done_count) },
  { title: 'FAILED', width: 8, right: true, text: (job) => String(job.failed_count) },
  { title: 'RATE', width: 11, right: true, text: (job, nowMs) => formatRate(rateOf(job, nowMs)) },
  { title: 'ETA', width: 7, text: (job, nowMs) => formatEta(etaOf(job, nowMs)) },
];

const [ID, TYPE, STATUS, BAR, PERCENT] = COLUMNS as [Column, Column, Column, Column, Column];

/** The selection mark before each row. */
const MARK_WIDTH = 2;

/**
 * The columns that fit `width` terminal columns: while the table is wider, the widest column
 * that may go goes (the type, then the bar, then the status), so an 80-column terminal still
 * shows the done and failed counts, the rate and the ETA.
 */
export function columnsFor(width: number): Column[] {
  const shown = [...COLUMNS];
  const total = () => shown.reduce((sum, column) => sum + column.width, MARK_WIDTH);
  while (total() > width) {
    const widest = shown.filter((column) => column.droppable).sort((a, b) => b.width - a.width)[0];
    if (widest === undefined) break;
    shown.splice(shown.indexOf(widest), 1);
  }
  return shown;
}

const cell = (text: string, column: Column): string =>
  column.right
    ? text.padStart(column.width - 1).slice(0, column.width - 1) + ' '
    : text.padEnd(column.width).slice(0, column.width);

/** The header's title for a column: the percent is titled only once the bar above it is gone. */
const titleOf = (column: Column, shown: Column[]): string =>
  column === PERCENT && !shown.includes(BAR) ? '   %' : column.title;

function JobRow({ job, selected, nowMs, shown }: { job: JobView; selected: boolean; nowMs: number; shown: Column[] }) {
  const textOf = (column: Column) => (shown.includes(column) ? cell(column.text(job, nowMs), column) : '');
  const head = `${selected ? '› ' : '  '}${textOf(ID)}${textOf(TYPE)}`;
  const tail = shown
    .filter((column) => column !== ID && column !== TYPE && column !== STATUS)
    .map(textOf)
    .join('');
  return (
    <Text wrap="truncate">
      <Text color={selected ? 'yellow' : undefined}>{head}</Text>
      <Text color={STATUS_COLOR[job.status]}>{textOf(STATUS)}</Text>
      {tail}
    </Text>
  );
}

/** The table of async actions, one frame, `width` terminal columns wide: what `promo jobs --once` prints. */
export function JobsTable({
  jobs,
  selected = 0,
  nowMs,
  showResult = false,
  width,
}: {
  jobs: JobView[];
  selected?: number;
  nowMs: number;
  showResult?: boolean;
  width: number;
}) {
  const current = jobs[selected];
  const shown = columnsFor(width);
  return (
    <Box flexDirection="column">
      <Text bold>promo jobs: {jobs.length} async action(s)</Text>
      <Text dimColor wrap="truncate">
        {' '.repeat(MARK_WIDTH)}
        {shown.map((column) => cell(titleOf(column, shown), column)).join('')}
      </Text>
      {jobs.length === 0 ? <Text dimColor>{'  (no jobs yet)'}</Text> : null}
      {jobs.map((job, i) => (
        <JobRow key={job.id} job={job} selected={i === selected} nowMs={nowMs} shown={shown} />
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

/** The terminal's width, followed as it is resized. */
function useColumns(): number {
  const { stdout } = useStdout();
  const [columns, setColumns] = useState(stdout.columns || 80);
  useEffect(() => {
    const resized = () => setColumns(stdout.columns || 80);
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', resized);
    };
  }, [stdout]);
  return columns;
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
      (error: unknown) =>
        setNotice(
          `${job.id}: ${(error as { details?: string; message?: string }).details ?? (error as Error).message}`,
        ),
    );
  };
  return { confirming, notice, ask, answer, isAsking: () => pending.current !== undefined };
}

const HELP = '↑/↓ select · enter result · c cancel · q/esc quit';

/** The live view: reloads the list, ↑/↓ (or k/j) select, enter shows the result, c cancels, q or esc quits. */
export function JobsApp({
  load,
  cancel,
  refreshMs = 500,
}: {
  load: () => Promise<JobView[]>;
  cancel?: (id: string) => Promise<string>;
  refreshMs?: number;
}) {
  const { exit } = useApp();
  const { jobs, nowMs } = useJobs(load, refreshMs);
  const [selected, setSelected] = useState(0);
  const [showResult, setShowResult] = useState(false);
  const canceling = useCancel(cancel);
  const width = useColumns();
  const shown = Math.min(selected, Math.max(0, jobs.length - 1));
  // The input handler may run before it is re-registered with this render's closure: it reads
  // the jobs and the selection from refs, never from a stale render.
  const current = useRef({ jobs, shown });
  current.current = { jobs, shown };

  useInput((input, key) => {
    if (canceling.isAsking()) return canceling.answer(input === 'y');
    if (input === 'q' || key.escape) exit();
    else if (key.upArrow || input === 'k') setSelected((s) => Math.max(0, s - 1));
    else if (key.downArrow || input === 'j')
      setSelected((s) => Math.min(Math.max(0, current.current.jobs.length - 1), s + 1));
    else if (key.return) setShowResult((v) => !v);
    else if (input === 'c') canceling.ask(current.current.jobs[current.current.shown]);
  });

  const prompt = canceling.confirming
    ? `Cancel ${canceling.confirming.id} (${canceling.confirming.type})? y cancels it, any other key keeps it`
    : undefined;
  return (
    <Box flexDirection="column">
      <JobsTable jobs={jobs} selected={shown} nowMs={nowMs} showResult={showResult} width={width} />
      {prompt || canceling.notice ? (
        <Text color={prompt ? 'yellow' : undefined}>{prompt ?? canceling.notice}</Text>
      ) : null}
      <Text dimColor>{HELP}</Text>
    </Box>
  );
}
