import type { ExportParameters } from './export-params.rules.js';
import type { ExportRecord } from './exports.repository.js';

/** Where a finished export's file is served, under the same credentials as the API. */
export const downloadPath = (id: string): string => `/v1/exports/${encodeURIComponent(id)}/download`;

/**
 * The Export object of the reference. `result.url` appears once the file is complete (DONE):
 * the download route on this server (absolute when the request's origin is known, as the
 * HTTP answers give it; the command line gives the path). `user_id` is the dashboard user's,
 * and promo has none.
 */
export function presentExport(row: ExportRecord, origin = '') {
  return {
    id: row.id,
    object: 'export' as const,
    created_at: row.created_at,
    status: row.status,
    channel: row.channel,
    exported_object: row.exported_object,
    parameters: JSON.parse(row.parameters) as ExportParameters,
    result: row.status === 'DONE' ? { url: `${origin}${downloadPath(row.id)}` } : null,
    user_id: null,
  };
}

export type ExportView = ReturnType<typeof presentExport>;
