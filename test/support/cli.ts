import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PROMO_BIN = fileURLToPath(new URL('../../bin/promo', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Env for a spawned promo: none of the developer's PROMO_* settings leak in. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PROMO_')));
  return { ...env, ...extra };
}

/** Runs `promo <args>` to completion. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROMO_BIN, ...args], { env: cleanEnv(options.env ?? {}), cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** A JSON request with the server key its env registered (PROMO_APP_ID/PROMO_APP_TOKEN). */
  // biome-ignore lint/suspicious/noExplicitAny: a test's answer body defaults to any on purpose (see TestResponse in test/support/server.ts); a request that names its type gets it
  request<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

async function requestWithEnvKey<T>(
  url: string,
  env: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      'X-App-Id': env.PROMO_APP_ID ?? '',
      'X-App-Token': env.PROMO_APP_TOKEN ?? '',
      'Content-Type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** Spawns `promo serve --port 0` and waits for its `listening on` line. */
export function spawnServe(args: string[], env: Record<string, string> = {}): Promise<SpawnedServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROMO_BIN, 'serve', '--port', '0', ...args], { env: cleanEnv(env) });
    // A test process that ends without stopping it (a failed test, --test-force-exit) must not
    // leave a server running on the machine.
    const killOnExit = (): void => void child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Generous: a loaded machine (other test files, a PostgreSQL beside them) can take half a minute to start one.
    const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s: ${stderr}`)), 60_000);
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1] as string,
        child,
        exited,
        stderr: () => stderr,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
        request: (method, path, body) => requestWithEnvKey(match[1] as string, env, method, path, body),
      });
    });
  });
}
