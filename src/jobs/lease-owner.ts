import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A runner's identity in `lease_owner`: host, process id and a nonce. */
export const newLeaseOwner = (): string => `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;

/**
 * Whether the process behind a lease is known to be gone: same host, another pid, and no
 * such process. Anything else (another host, a live pid, a malformed owner) is presumed
 * alive, and its lease is taken over only once it expires.
 */
export function isOwnerDead(owner: string): boolean {
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
