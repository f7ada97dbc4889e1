import type { JobConnection } from '../engine.js';
import { openPool } from './connect.js';
import { postgresEngineOver } from './engine.js';
import type { ColumnNullability } from './null-order.js';

/** What each worker thread of a runner opens its connection with (db/postgres/job-host.ts makes it). */
export interface PostgresJobSpec {
  url: string;
  /** Connections of the thread's own pool: a portion's transaction, and an overlapping portion's. */
  poolSize: number;
  /** The runner's engine's schema columns (the order compiler's; db/postgres/null-order.ts). */
  columns: ColumnNullability;
}

const connections = new Map<string, JobConnection>();

/** Where a worker thread imports this module from (db/engine.ts JobConnectionSpec): its own URL. */
export const JOB_CONNECTION_HOME = import.meta.url;

async function timed<T>(write: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await write();
  return { value, ms: performance.now() - started };
}

/**
 * A worker thread's own pool on the database (a pg pool cannot cross threads). No write gate: a
 * portion holds row locks only (its job's row and the rows it writes), so the API's writes and
 * other threads' portions never wait for it, and portions grow as if nobody else wrote
 * (`quiet`): each commit costs a durable flush, fewer and larger portions cost fewer. Nothing to
 * keep between portions (the server keeps its own log).
 */
export function openJobConnection(spec: unknown): JobConnection {
  const { url, poolSize, columns } = spec as PostgresJobSpec;
  let connection = connections.get(url);
  if (!connection) {
    // The runner's process checked the database's collation before it made this spec.
    const engine = postgresEngineOver(openPool(url, { poolSize, applicationName: 'promo job' }), columns);
    connection = {
      engine,
      useCacheMb: () => undefined,
      inTurn: timed,
      async portion(write) {
        const { value, ms } = await timed(() => write());
        return { value, ms, neighbours: 'quiet' };
      },
      afterJob: () => undefined,
      idleUpkeep: async () => undefined,
    };
    connections.set(url, connection);
  }
  return connection;
}
