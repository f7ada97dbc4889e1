import { spawn, type ChildProcess } from 'node:child_process';

export interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Spawns a process that prints `listening on URL` first, and waits for that line. A server logs
 * only warnings (unless the env says otherwise): a line per request would bury the figures.
 */
export function spawnListening(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { PROMO_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /listening on (\S+)\n/.exec(out);
      if (!match) return;
      resolve({
        url: match[1] as string,
        child,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.on('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
