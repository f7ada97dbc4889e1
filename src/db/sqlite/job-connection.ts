import type { JobConnection, Neighbours, PortionWrite } from '../engine.js';
import { openSqliteEngine, type SqliteEngine } from './engine.js';
import type { WalReset } from './wal.js';
import { walKeeper, type WalKeeper } from './wal-checkpoints.js';
import { gateWrites, markGateWrite, throughWriteGate, type GateOptions } from './write-gate.js';
import { letWaitingWriteFirst, waitingMs } from './write-intent.js';

/** What each worker thread of a runner opens its connection with (db/sqlite/job-host.ts makes it). */
export interface SqliteJobSpec {
  dbFile: string;
  /** The runner's write gate, shared by its worker threads (db/sqlite/write-gate.ts). */
  gate: SharedArrayBuffer;
  gateOptions: GateOptions;
  /** Past this many bytes of WAL, a portion first copies it back (db/sqlite/wal-checkpoints.ts). */
  walCheckpointBytes: number;
  /** Copy the WAL back before each portion (PASSIVE); false when the runner's caller does (jobs/follow.ts). */
  copyWalBack: boolean;
  /** Where the API's writer of this process says it waits for the lock (db/sqlite/write-intent.ts). */
  writeIntent: SharedArrayBuffer;
  handOffMs: number;
}

/** What the connection saw at the end of its last portion: its data_version and the gate's write count. */
interface Seen {
  dataVersion: number;
  gateWrites: number;
}

interface Worker {
  engine: SqliteEngine;
  wal: WalKeeper;
  spec: SqliteJobSpec;
  seen?: Seen;
  cacheMb?: number;
}

const connections = new Map<string, JobConnection>();

/** Where a worker thread imports this module from (db/engine.ts JobConnectionSpec): its own URL. */
export const JOB_CONNECTION_HOME = import.meta.url;

/**
 * Holding the gate, before a portion: did another connection commit since this one's last
 * portion? `PRAGMA data_version` changes only for other connections' commits (the API's, another
 * process's, or another worker thread's: when the gate's write count moved too, it cannot tell).
 */
function neighboursOf(w: Worker): Neighbours {
  if (!w.seen) return 'unknown';
  if (w.engine.dataVersion() === w.seen.dataVersion) return 'quiet';
  return gateWrites(w.spec.gate) === w.seen.gateWrites ? 'writing' : 'unknown';
}

/** Holding the gate, after this connection wrote (a portion, a checkpoint): what it saw. */
function noteWrite(w: Worker): void {
  w.seen = { gateWrites: markGateWrite(w.spec.gate), dataVersion: w.engine.dataVersion() };
}

/**
 * One portion through the write gate. Past the WAL's threshold, the portion first copies the
 * WAL back: the bulk before the gate, the rest holding it. A portion waits while an API write of
 * this process waits for the lock, and may end early once that write has waited handOffMs.
 */
async function portion<T>(w: Worker, write: (shouldYield?: () => boolean) => Promise<T>): Promise<PortionWrite<T>> {
  const { spec } = w;
  if (spec.copyWalBack) w.wal.copyBack();
  const intent = spec.writeIntent;
  const { value } = await throughWriteGate(spec.gate, spec.gateOptions, async () => {
    const neighbours = neighboursOf(w);
    letWaitingWriteFirst(intent, spec.handOffMs);
    const upkeepMs = w.wal.restart(spec.walCheckpointBytes);
    const started = performance.now();
    const result = await write(() => waitingMs(intent) >= spec.handOffMs);
    const ms = performance.now() - started;
    noteWrite(w);
    return { value: result, ms, neighbours, ...(upkeepMs === undefined ? {} : { upkeepMs }) };
  });
  return value;
}

function connectionOf(w: Worker): JobConnection {
  return {
    engine: w.engine,
    useCacheMb(mb) {
      if (w.cacheMb === mb) return;
      w.engine.setCacheMb(mb);
      w.cacheMb = mb;
    },
    inTurn: (write) =>
      throughWriteGate(w.spec.gate, w.spec.gateOptions, async () => {
        const value = await write();
        noteWrite(w);
        return value;
      }),
    portion: (write) => portion(w, write),
    // A bulk job leaves a WAL as large as its last stretch between checkpoints; when it
    // ends, this thread (not the API's) copies it back and lets it restart at zero bytes.
    afterJob() {
      const ms = w.wal.reset('TRUNCATE');
      // Outside the gate, but a restart moves other connections' data_version: count it.
      if (ms !== undefined) markGateWrite(w.spec.gate);
      return ms;
    },
    async idleUpkeep(plan) {
      const { value } = await throughWriteGate(w.spec.gate, w.spec.gateOptions, async () => {
        const ms = w.wal.reset(plan as WalReset);
        noteWrite(w);
        return ms;
      });
      return value;
    },
  };
}

/**
 * The worker thread's own connection to the file: synchronous=NORMAL (a job resumes from
 * what the database holds), and no checkpoint inside a commit: the worker copies the WAL back
 * itself, between portions (db/sqlite/wal-checkpoints.ts). Statement journals stay in memory
 * (temp_store, db/sqlite/connect.ts openSqlite): an import's savepoint per order journals the
 * ~25 pages the order touches, more than the 64 KiB SQLite keeps in memory before it spills
 * them to a temp file, so each order wrote one (~40 us of 860 per order).
 */
export function openJobConnection(spec: unknown): JobConnection {
  const sqliteSpec = spec as SqliteJobSpec;
  let connection = connections.get(sqliteSpec.dbFile);
  if (!connection) {
    const engine = openSqliteEngine(sqliteSpec.dbFile, { synchronous: 'NORMAL', autocheckpointBytes: 0 });
    const worker: Worker = {
      engine,
      wal: walKeeper(engine.sqlite, sqliteSpec.dbFile, sqliteSpec.gate),
      spec: sqliteSpec,
    };
    connection = connectionOf(worker);
    connections.set(sqliteSpec.dbFile, connection);
  }
  return connection;
}
