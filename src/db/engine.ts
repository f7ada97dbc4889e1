import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from './database.js';

/** The query builder over promo's schema: a function that runs as well outside a transaction as inside one takes this. */
export type Db = Kysely<Database>;

/**
 * An open transaction. A function that must run inside one (its writes commit with the
 * caller's, its reads see the caller's writes, or it relies on the write lock the transaction
 * holds) takes this: passing the root handle is a type error.
 */
export type Tx = Transaction<Database>;

/**
 * A one-row `INSERT ... VALUES (...) ON CONFLICT ... DO NOTHING` prepared once and run for many
 * rows in the open transaction: bulk inserts. The statement's first column tells its rows apart
 * (an id): PostgreSQL answers which rows went in by it.
 */
export interface BulkStatement {
  /**
   * Inserts each row of parameters in order, inside `trx`; answers, per row, whether it went in
   * (false: a conflict skipped it). A row that fails otherwise throws; the rows before it stay.
   */
  run(trx: Tx, rows: ReadonlyArray<readonly unknown[]>): Promise<boolean[]>;
}

/** How much room the database takes and how much of it is free (engine units: pages). */
export interface SpaceFigures {
  pageSize: number;
  pageCount: number;
  freePages: number;
  autoVacuum: 'NONE' | 'FULL' | 'INCREMENTAL';
}

/**
 * A write that must commit together with a request's own first write, or not at all: the
 * idempotency key's row. The engine runs `statement` right after the request's first
 * transaction begins, inside it; if it fails (the key is taken) the transaction is undone and
 * the caller gets `refusal(error)`.
 */
export interface FirstWrite {
  /** The statement, compiled for this engine. */
  statement(): CompiledQuery;
  /** What the caller sees when the statement fails. */
  refusal(error: unknown): unknown;
  /** Set once the statement ran inside a transaction. */
  done: boolean;
}

/** Upkeep of the database's storage: `promo vacuum`, permanent deletion. */
export interface StorageUpkeep {
  space(): SpaceFigures;
  /** Gives up to `pages` free pages back to the file system, inside the caller's write transaction. */
  releaseFreePages(trx: Tx, pages: number): void;
  /** Rewrites the whole database at once; refused (database_in_use) while anyone else writes. */
  rewriteWhole(): void;
  /** Lets the write-ahead log restart empty, so no freed page lingers in it (between this connection's transactions). */
  emptyLog(): Promise<void>;
  /** Runs `fn` with freed space overwritten, not merely released (a permanent deletion). */
  erasingFreedSpace<T>(fn: () => Promise<T>): Promise<T>;
}

/** The API connection's durable commits: what /metrics shows of how busy the writer is. */
export interface CommitStats {
  /** Durable COMMITs so far, each holding one batch of write transactions. */
  batches: number;
  /** Write transactions those batches held. */
  transactions: number;
  /** Seconds spent in COMMIT (writing the batch, then the disk's sync), summed. */
  commitSeconds: number;
  /**
   * Seconds the transactions held the writer, COMMIT excepted, summed. With `commitSeconds`,
   * how busy the one writer is: a write path cannot go faster than one transaction per
   * (held + commit) share, however many cores serve the rest.
   */
  transactionSeconds: number;
}

/** No commits yet. */
export const noCommits = (): CommitStats => ({ batches: 0, transactions: 0, commitSeconds: 0, transactionSeconds: 0 });

/** Two writers' commit figures together (a connection's and its writer thread's; a stopped thread's and its successor's). */
export const addCommits = (a: CommitStats, b: CommitStats): CommitStats => ({
  batches: a.batches + b.batches,
  transactions: a.transactions + b.transactions,
  commitSeconds: a.commitSeconds + b.commitSeconds,
  transactionSeconds: a.transactionSeconds + b.transactionSeconds,
});

/**
 * What a connection has run since it opened: statements executed through Kysely and queries
 * Kysely built and compiled. The per-request budget of docs/performance.md is checked against
 * these (test/api/hot-path-budget.test.ts).
 */
export interface QueryStats {
  statements: number;
  compiles: number;
}

/** A connection pool's figures (PostgreSQL): connections open, those idle, and callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Transactions re-run because they lost a race (PostgreSQL), and those that lost every attempt; per process. */
export interface RetryStats {
  retries: number;
  exhausted: number;
}

/** The engine's own figures, for /metrics and the tests that budget a request's statements. */
export interface EngineStats {
  /** Bytes the database takes on disk, by part (SQLite: `database` and `wal`); none where the files are not ours. */
  storageBytes: Record<string, number>;
  commits: CommitStats;
  queries: QueryStats;
  /** An engine with a connection pool: its figures (PostgreSQL: the transactions' pool). */
  pool?: PoolStats;
  /** The API's pool for statements outside a transaction (PostgreSQL), beside `pool`. */
  readPool?: PoolStats;
  /** An engine that re-runs transactions that lost a race: how often. */
  retries?: RetryStats;
  /** A server whose whole writes run on a writer thread (SQLite under `serve`: root/writer-thread.ts). */
  writerThread?: { up: boolean; operations: number };
}

/**
 * The one port to the database engine. Everything a service or job step needs beyond Kysely's
 * builder goes through it; the SQLite engine (db/sqlite/engine.ts) implements it, a second
 * engine implements the same.
 */
export interface DatabaseEngine {
  readonly db: Db;
  /**
   * Whether writers run side by side under row locks (PostgreSQL), so a claim of work takes its
   * row with `FOR UPDATE SKIP LOCKED`; false where one writer at a time holds the whole database
   * (SQLite, which also refuses the clause).
   */
  readonly rowLocks: boolean;
  /** Runs `fn` in a savepoint of `trx`: on a throw, its writes are undone and the transaction's others kept. */
  inSavepoint<T>(trx: Tx, fn: () => Promise<T>): Promise<T>;
  /** A bulk statement for `query`'s SQL (its parameters ignored), prepared once per connection. */
  prepareBulk(query: CompiledQuery): BulkStatement;
  /** Runs `fn` with `first` pending for its first transaction. */
  withFirstWrite<T>(first: FirstWrite, fn: () => Promise<T>): Promise<T>;
  /** Shrinks this connection's cache while a large staging runs; the returned function restores it. */
  shrinkCache(): () => void;
  readonly storage: StorageUpkeep;
  stats(): EngineStats;
  /**
   * Whether the database answers (GET /health): resolves when it does, throws an AppError
   * (503 database_unavailable) when it does not. SQLite's file is in this process: it always does.
   */
  checkHealth(): Promise<void>;
  /**
   * A budget of `points` requests per `windowSeconds` that every server on this database
   * shares (`insurance` decides while the database does not answer). Absent where one process
   * owns the database's budgets (SQLite: the API middleware counts in memory).
   */
  sharedRateLimiter?(
    points: number,
    windowSeconds: number,
    insurance: RateLimiterAbstract,
  ): Promise<RateLimiterAbstract>;
  /**
   * A number that moves whenever anyone commits to the database, as this thread's current read
   * snapshot sees it (SQLite: the reader's `PRAGMA data_version`, read once per snapshot), for
   * answers kept in memory while it holds (http/kept-answers.ts). Absent, or
   * undefined, where the engine cannot see every commit (PostgreSQL; a handle without a reader):
   * nothing may be kept by it then.
   */
  committedVersion?(): number | undefined;
  /**
   * What the job runner (jobs/runner.ts) needs of the engine, made once per runner. Absent on
   * a connection that runs no runner (a job worker thread's own).
   */
  jobHost?(options: JobHostOptions): JobHost;
  close(): Promise<void>;
}

/**
 * Who else wrote between a worker connection's last portion and this one: `quiet` (nobody),
 * `writing` (another connection), `unknown` (it cannot tell). Portions size themselves on it
 * (jobs/portion-size.ts).
 */
export type Neighbours = 'quiet' | 'writing' | 'unknown';

/**
 * How the job runner's writers take turns and keep the log: the engine's tuning, which tests
 * shorten. An engine without such a thing ignores it.
 */
export interface JobHostOptions {
  /** The pause after each portion before the next writer's turn. */
  gateOptions?: { gapRatio: number; minGapMs: number };
  /** When worker connections copy the write-ahead log back: while jobs run, and while none does. */
  wal?: { jobBytes: number; idleBytes: number };
  /** The runner's caller runs the log upkeep itself (`upkeepHere`): worker connections skip their copy before each portion. */
  callerCopiesWal?: boolean;
  /** How long an API write of this process waits before a portion that can end early ends for it. */
  handOffMs: number;
}

/**
 * How a worker thread opens its side of the job host: the URL of a module that exports
 * `openJobConnection(spec)` (a JobConnectionModule), and the spec, which crosses to the thread
 * (structured clone: no functions).
 */
export interface JobConnectionSpec {
  home: string;
  spec: unknown;
}

export interface JobConnectionModule {
  /** The thread's connection for this spec: opened once, then the same. */
  openJobConnection(spec: unknown): JobConnection;
}

/** The job runner's side of the engine, on the thread that claims jobs. */
export interface JobHost {
  /** What every worker task carries to open its connection. */
  readonly connection: JobConnectionSpec;
  /** A count that moves whenever this process's API commits: portions shorten while it moves. */
  apiCommits(): number;
  /** While no job runs: the upkeep a worker thread should run now (its plan, for `JobConnection.idleUpkeep`), if any. */
  idleUpkeep(): unknown;
  /** For a caller that keeps the log itself (callerCopiesWal): one round of upkeep, on its own thread. */
  upkeepHere(): Promise<void>;
  /**
   * The longest portion while nobody else writes, where the engine sets it rather than the
   * runner's caller: an engine whose API writes never wait for a portion lets portions run long.
   */
  readonly quietPortionMs?: number;
}

/** What a portion's write answers: the step's value, how long it held the database, and what it saw. */
export interface PortionWrite<T> {
  value: T;
  ms: number;
  neighbours: Neighbours;
  /** How long log upkeep took inside the portion, when it ran. */
  upkeepMs?: number;
}

/** A worker thread's connection to the database, and the turns its writes take with the runner's other threads. */
export interface JobConnection {
  readonly engine: DatabaseEngine;
  /** This connection's page cache, in MiB (a job type may ask for another). */
  useCacheMb(mb: number): void;
  /** A write that is not a portion (a job's failure), in turn with the other worker threads. */
  inTurn<T>(write: () => Promise<T>): Promise<{ value: T; ms: number }>;
  /**
   * One portion, in turn: `write` gets `shouldYield` when an API write of this process can ask
   * it to end early (true once that write has waited long enough).
   */
  portion<T>(write: (shouldYield?: () => boolean) => Promise<T>): Promise<PortionWrite<T>>;
  /** After a job's last portion: the log upkeep a job's end calls for; how long it took, if it ran. */
  afterJob(): number | undefined;
  /** The upkeep the runner planned while no job runs (JobHost.idleUpkeep), in turn. */
  idleUpkeep(plan: unknown): Promise<number | undefined>;
}
