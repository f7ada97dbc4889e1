import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger as Pino } from 'pino';

/** Levels an operator may choose (`--log-level`, `PROMO_LOG_LEVEL`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Structured fields of a line: snake_case, never a secret. */
export type LogFields = Record<string, unknown>;

/**
 * The one logger every part of promo writes through: a message and structured fields, one
 * JSON line each on stderr (pino), or pino-pretty's readable lines when stderr is a terminal.
 */
export interface Logger {
  error(message: string, error?: unknown, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Writes what is buffered; called before the process exits. */
  flush(): void;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Readable lines instead of JSON (default: when stderr is a terminal). */
  pretty?: boolean;
  /** Where lines go (default stderr); tests pass a stream they read. */
  destination?: DestinationStream;
}

const require = createRequire(import.meta.url);

/** pino-pretty is loaded only for a terminal: it costs ~40 ms to load, and JSON needs none of it. */
function destinationOf(options: LoggerOptions): DestinationStream {
  if (options.destination) return options.destination;
  if (options.pretty ?? process.stderr.isTTY) {
    const pretty = require('pino-pretty') as (o: object) => DestinationStream;
    return pretty({ destination: 2, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }
  // Asynchronous: lines that arrive while a write is under way go out together in the next one,
  // so a busy server does not pay a write per request and a quiet one shows each line at once.
  return pino.destination({ dest: 2, sync: false });
}

export function createLogger(options: LoggerOptions): Logger {
  const pinoLogger: Pino = pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destinationOf(options),
  );
  return {
    error: (message, error, fields) =>
      pinoLogger.error({ ...fields, ...(error === undefined ? {} : { err: error }) }, message),
    warn: (message, fields) => pinoLogger.warn(fields ?? {}, message),
    info: (message, fields) => pinoLogger.info(fields ?? {}, message),
    debug: (message, fields) => pinoLogger.debug(fields ?? {}, message),
    flush: () => pinoLogger.flush(),
  };
}
