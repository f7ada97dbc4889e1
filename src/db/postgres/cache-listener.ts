import pg from 'pg';
import { CACHE_CHANNEL, type CacheTopic, type CacheVersions } from '../versioned-cache.js';

/** How long a kept answer holds at most when no announcement came (PROMO_CACHE_TTL_MS): the fallback for a lost one. */
export const DEFAULT_CACHE_TTL_MS = 1000;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5000;

export interface CacheListener extends CacheVersions {
  /** This process's own transaction committed changes of these topics: drop their answers now. */
  changed(topics: Iterable<CacheTopic>): void;
  /** Whether the listening connection is up (kept answers are used only then). */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * The versions of a PostgreSQL engine's kept answers (db/versioned-cache.ts), moved by
 * `NOTIFY promo_cache, '<topic>'` that any server's committed transaction sent
 * (announceChange). One connection per process listens, outside the pool (a pooled
 * connection is shared; LISTEN belongs to one session), opened by the first versioned read.
 *
 * A topic's version is its count of announcements, plus the connection's generation, plus
 * the number of `ttlMs` periods since the epoch: all three only grow, so the sum moves when
 * any does, and an answer is never kept longer than `ttlMs` even if an announcement was lost
 * (a connection that died without a word). While the connection is down (not yet open, lost,
 * reconnecting) there is no version: nothing is kept, every read reads; each new connection
 * moves the generation, so nothing kept before it is used again.
 * Reconnects wait 100 ms, doubling to 5 s.
 */
export function cacheListener(url: string, ttlMs = DEFAULT_CACHE_TTL_MS): CacheListener {
  const announcements = new Map<CacheTopic, number>();
  let generation = 0;
  let client: pg.Client | undefined;
  let listening = false;
  let started = false;
  let closed = false;
  let retryMs = RECONNECT_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const onLost = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    listening = false;
    generation++;
    lost.end().catch(() => undefined);
    if (closed) return;
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, application_name: 'promo cache listener', keepAlive: true });
    client = next;
    next.on('error', () => onLost(next));
    next.on('end', () => onLost(next));
    next.on('notification', (message) => {
      const topic = message.payload as CacheTopic;
      announcements.set(topic, (announcements.get(topic) ?? 0) + 1);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch {
      onLost(next);
      return;
    }
    if (closed || client !== next) return;
    // Whatever was kept before this session listened may have missed announcements.
    generation++;
    listening = true;
    retryMs = RECONNECT_FIRST_MS;
  }

  return {
    version(topic) {
      if (!started) {
        started = true;
        void connect();
      }
      if (!listening) return undefined;
      return generation + (announcements.get(topic) ?? 0) + Math.floor(Date.now() / ttlMs);
    },
    changed(topics) {
      for (const topic of topics) announcements.set(topic, (announcements.get(topic) ?? 0) + 1);
    },
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retryTimer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}
