import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Migration } from '../../src/db/migrations.js';
import { loadPostgresMigrations, migratePostgres } from '../../src/db/postgres/migrate.js';

/**
 * A PostgreSQL server for tests, in this order of preference:
 * 1. PROMO_TEST_DB, a postgres:// URL of a server CI started: databases are created on it;
 * 2. PostgreSQL's own binaries on this machine: a scratch cluster in a temp folder, started
 *    once per test file (process) and stopped when it ends;
 * 3. neither: the PostgreSQL tests are skipped, saying why.
 * Every database is created as SQLite compares text: LC_COLLATE and LC_CTYPE 'C', from
 * template0 (a template1 made with another locale cannot be copied to C).
 */
export interface TestPostgres {
  /** Where the databases live, for messages. */
  origin: string;
  /** Seconds initdb and the start of the scratch cluster took (0 with PROMO_TEST_DB). */
  startSeconds: number;
  /** A new, empty database; its URL. */
  emptyDatabase(): Promise<string>;
  /** A new database cloned from a template that holds sql/postgres/ applied; its URL. */
  migratedDatabase(): Promise<string>;
  /** Drops the databases made here; stops the scratch cluster and removes its folder. */
  close(): Promise<void>;
}

export type PostgresForTests = { skip: string; server?: undefined } | { skip: false; server: TestPostgres };

/** sql/postgres/ in order: promo's own list of the PostgreSQL migrations. */
export const postgresMigrationFiles = (): Migration[] => loadPostgresMigrations();

/** Applies sql/postgres/ to an empty database with promo's own migrator; the versions it then records. */
export async function applyPostgresMigrations(url: string): Promise<number[]> {
  await migratePostgres(url);
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((row) => Number(row.version));
  });
}

/**
 * The URL of database `name` on the server `adminUrl` names. By hand, not with URL: a socket
 * URL (`postgresql://user@/db?host=/dir`) has no host, which WHATWG URL refuses.
 */
export function databaseUrl(adminUrl: string, name: string): string {
  return adminUrl.replace(/^(postgres(?:ql)?:\/\/[^/?]*)(\/[^?]*)?/, `$1/${name}`);
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const createDatabase = (template: string, name: string): string =>
  `CREATE DATABASE "${name}" TEMPLATE "${template}" ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`;

/**
 * Databases made by this process, on any server: one count for the process, so two servers'
 * handles on one cluster (the PostgreSQL pass's and a test's own postgresForTests) never pick
 * the same name.
 */
let counter = 0;
/**
 * This process's part of each name: a process killed before its drop leaves its databases
 * behind on a cluster that lives on (PROMO_TEST_DB), and a later process given the same pid
 * would otherwise meet them (42P04).
 */
const run = randomBytes(4).toString('hex');

/** Databases on one server: empty ones from template0, migrated ones from a migrated template. */
function databasesOn(adminUrl: string, origin: string, startSeconds: number, stop: () => void): TestPostgres {
  const made: string[] = [];
  const fresh = async (template: string): Promise<string> => {
    const name = `promo_test_${process.pid}_${run}_${++counter}`;
    await withClient(adminUrl, (c) => c.query(createDatabase(template, name)));
    made.push(name);
    return databaseUrl(adminUrl, name);
  };
  return {
    origin,
    startSeconds,
    emptyDatabase: () => fresh('template0'),
    migratedDatabase: async () => fresh(await migratedTemplate(adminUrl)),
    async close() {
      await withClient(adminUrl, async (c) => {
        for (const name of made.splice(0)) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      stop();
    },
  };
}

/**
 * The template for migratedDatabase(), made once per content of sql/postgres/ (its name holds
 * their hash, as test/support/db.ts keys SQLite's template file). Built under a name of its
 * own and renamed when complete, so a concurrent test file never clones half a schema; the
 * loser of a race drops its copy.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const files = postgresMigrationFiles();
  const hash = createHash('sha256')
    .update(files.map((f) => f.name + f.sql).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const name = `promo_template_${hash}`;
  return withClient(adminUrl, async (c) => {
    const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_${process.pid}`;
    await c.query(createDatabase('template0', building));
    await applyPostgresMigrations(databaseUrl(adminUrl, building));
    try {
      await c.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error; // duplicate_database: another file won
      await c.query(`DROP DATABASE "${building}"`);
    }
    return name;
  });
}

/** PostgreSQL's server programs: pg_config's bindir, else Debian's /usr/lib/postgresql/<major>/bin. */
export function findPostgresBinaries(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(
      execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    // no pg_config on the PATH
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((major) => join(debian, major, 'bin')));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** initdb refuses to run as root: as root, the cluster's programs run as the `postgres` user. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } | { refused: string } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
  } catch {
    return { refused: 'running as root, and there is no postgres user to run initdb as' };
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A scratch cluster in a temp folder: initdb --no-locale -E UTF8 (so the cluster's default
 * collation is C too), the socket in that folder, TCP on 127.0.0.1 at a free port, fsync on.
 * initdb itself runs --no-sync: the cluster is thrown away, so flushing its fresh files buys
 * nothing; the server's commits are durable as in production. Small: a few connections, 32 MB.
 */
async function startScratchCluster(
  bin: string,
  as: { prefix: string[]; uid?: number; gid?: number },
): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'promo-pg-'));
  if (as.uid !== undefined) chownSync(dir, as.uid, as.gid ?? as.uid);
  const data = join(dir, 'data');
  const run = (program: string, args: string[]): void => {
    const [command, ...rest] = [...as.prefix, join(bin, program), ...args];
    execFileSync(command as string, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const started = performance.now();
  const port = await freePort();
  let running = false;
  const stop = (): void => {
    if (running) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    running = false;
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that dies early must not leave a server running.
  process.once('exit', stop);
  try {
    run('initdb', ['-D', data, '--no-locale', '-E', 'UTF8', '-U', 'postgres', '--auth=trust', '--no-sync']);
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=on -c shared_buffers=32MB -c max_connections=100`;
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '120', '-o', options, 'start']);
    running = true;
  } catch (error) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    stop();
    throw new Error(`the scratch PostgreSQL did not start: ${(error as Error).message}\n${log}`);
  }
  const startSeconds = (performance.now() - started) / 1000;
  const adminUrl = `postgresql://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${port}`;
  return databasesOn(adminUrl, `scratch cluster in ${dir} (PostgreSQL binaries in ${bin})`, startSeconds, stop);
}

/** The server this test file uses, or why there is none. */
export async function postgresForTests(): Promise<PostgresForTests> {
  const given = process.env.PROMO_TEST_DB;
  if (given) {
    if (!/^postgres(ql)?:\/\//.test(given)) throw new Error(`PROMO_TEST_DB must be a postgres:// URL, not ${given}`);
    return { skip: false, server: databasesOn(given, 'PROMO_TEST_DB', 0, () => {}) };
  }
  const bin = findPostgresBinaries();
  if (!bin)
    return {
      skip: 'no PostgreSQL here: PROMO_TEST_DB is not set and no initdb was found (pg_config --bindir, /usr/lib/postgresql/*/bin)',
    };
  const as = runAs();
  if ('refused' in as) return { skip: `no PostgreSQL here: ${as.refused}` };
  return { skip: false, server: await startScratchCluster(bin, as) };
}
