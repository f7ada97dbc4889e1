import { closeSync, fdatasyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { compileFilter, evaluateFilter, type CompiledFilter } from '../../engine/conditions/index.js';
import { JobFailure, type JobStep, type PortionContext, type PortionJob } from '../../jobs/job-step.js';
import { csvLine } from '../../lib/csv.js';
import { columnsFor, EXPORT_SOURCES, fieldValue, type ExportRow, type ExportSource } from './export-sources.rules.js';
import type { ExportPlan } from './export-params.rules.js';
import * as repo from './exports.repository.js';

/** The EXPORT job's input, stored with its async action. */
export interface ExportPayload {
  export_id: string;
  /** The CSV file's absolute path, in the exports directory beside the database. */
  file: string;
  plan: ExportPlan;
  /** The highest seq at the request: the export holds the rows that existed then. */
  max_seq: number;
  /** When the export was requested: relative dates of its filters are read at this time. */
  requested_at: string;
}

/** Bytes gathered before one write to the file. */
const CHUNK_BYTES = 64 * 1024;

interface PortionWrite {
  scanned: number;
  written: number;
  bytes: number;
  last: [unknown, number] | null;
}

/**
 * Appends one keyset page of rows to the file from `bytes` on: the file is first cut back to
 * the bytes the committed state covers, so a portion that rolled back (a crash, a lost lease)
 * leaves nothing behind, and a resumed job neither skips nor repeats a row. The file is
 * synced before the portion's transaction commits the new state.
 */
async function writePortion(
  ctx: PortionContext,
  payload: ExportPayload,
  source: ExportSource,
  state: { bytes: number; after: [unknown, number] | null },
  maxItems: number,
) {
  const { plan } = payload;
  const filter: CompiledFilter | null = plan.filter ? compileFilter(plan.filter, new Date(payload.requested_at)) : null;
  const fd = openSync(payload.file, state.bytes === 0 ? 'w' : 'r+');
  const out: PortionWrite = { scanned: 0, written: 0, bytes: state.bytes, last: state.after };
  let chunk = state.bytes === 0 ? csvLine(plan.fields) : '';
  const flush = () => {
    out.bytes += writeSync(fd, chunk, out.bytes);
    chunk = '';
  };
  try {
    ftruncateSync(fd, state.bytes);
    const columns = columnsFor(
      source,
      [...plan.fields, ...(plan.filter?.conditions.map((c) => c.field) ?? [])],
      plan.orderColumn,
    );
    const page = {
      columns,
      orderColumn: plan.orderColumn,
      descending: plan.descending,
      after: state.after,
      maxSeq: payload.max_seq,
      limit: maxItems,
    };
    const rows = repo.streamSourcePage(ctx.trx, source, page);
    for await (const row of rows) {
      out.scanned += 1;
      out.last = [plan.orderColumn === null ? row.seq : row[plan.orderColumn], row.seq as number];
      if (!kept(source, row, filter)) continue;
      chunk += csvLine(plan.fields.map((field) => fieldValue(source, row, field)));
      out.written += 1;
      if (chunk.length >= CHUNK_BYTES) flush();
    }
    flush();
    fdatasyncSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code)
      throw new JobFailure(`Cannot write the export file: ${(error as Error).message}`);
    throw error;
  } finally {
    closeSync(fd);
  }
  return out;
}

const kept = (source: ExportSource, row: ExportRow, filter: CompiledFilter | null): boolean =>
  (source.keep?.(row) ?? true) &&
  (filter === null || evaluateFilter(filter, (field) => fieldValue(source, row, field)));

/**
 * EXPORT: walks the exported table by keyset, `maxItems` rows a portion, writing the rows its
 * filter keeps to the CSV file; the export row holds the position and the file's committed
 * length. The cursor counts rows walked; the total is the table's highest seq at the request
 * (a bound on them that costs no count), so the last portion moves the cursor to it. An
 * export deleted while it runs ends its job at once.
 */
export const exportStep: JobStep<ExportPayload> = {
  async run(ctx, job, maxItems) {
    const record = await repo.findExport(ctx.trx, job.payload.export_id);
    if (!record) return { cursor: job.total, done: 0, failed: 0, finished: true };
    const source = EXPORT_SOURCES[job.payload.plan.exported_object];
    const after = record.last_key === null ? null : (JSON.parse(record.last_key) as [unknown, number]);
    const out = await writePortion(ctx, job.payload, source, { bytes: record.bytes, after }, maxItems);
    await repo.updateExport(ctx.trx, record.id, {
      status: 'IN_PROGRESS',
      last_key: out.last === null ? null : JSON.stringify(out.last),
      bytes: out.bytes,
      rows: record.rows + out.written,
      updated_at: ctx.now,
    });
    const finished = out.scanned < maxItems;
    return {
      cursor: finished ? job.total : Math.min(job.total, job.cursor + out.scanned),
      done: out.written,
      failed: 0,
      finished,
    };
  },
  async finish(ctx, job) {
    const record = await repo.findExport(ctx.trx, job.payload.export_id);
    if (record) await repo.updateExport(ctx.trx, record.id, { status: 'DONE', updated_at: ctx.now });
    return {
      export_id: job.payload.export_id,
      message: `Exported ${job.done_count} row(s).`,
      done_count: job.done_count,
    };
  },
  async fail(ctx, job: PortionJob<ExportPayload>) {
    await repo.updateExport(ctx.trx, job.payload.export_id, { status: 'ERROR', updated_at: ctx.now });
  },
};
