import type { Selectable } from 'kysely';
import type { SegmentTable } from './segments.table.js';

export type SegmentRow = Selectable<SegmentTable>;

/** The segment object of POST /v1/segments and GET /v1/segments/{id} (the reference's SegmentsGetResponseBody). */
export const presentSegment = (row: SegmentRow) => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  type: row.type,
  filter: row.filter === null ? null : (JSON.parse(row.filter) as Record<string, unknown>),
  initial_sync_status: row.initial_sync_status,
  object: 'segment' as const,
});

export type SegmentObject = ReturnType<typeof presentSegment>;

/** A segment as a customer's segment list and activities name it (the reference's SimpleSegment). */
export const presentSimpleSegment = (row: Pick<SegmentRow, 'id' | 'name'>) => ({
  id: row.id,
  name: row.name,
  object: 'segment' as const,
});

export type SimpleSegment = ReturnType<typeof presentSimpleSegment>;
