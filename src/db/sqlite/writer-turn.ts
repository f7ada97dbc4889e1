/**
 * The writer's turn: the threads of one process that write through group commit (the main
 * thread, and the writer thread that runs whole redemptions and orders: root/writer-thread.ts) take turns
 * by batch, first come first served, from a batch's BEGIN IMMEDIATE to its COMMIT.
 *
 * Without it, a thread that found SQLite's write lock held by the other would poll for it,
 * asleep (db/sqlite/connect.ts beginImmediate): the main thread would stop answering reads
 * for the length of the other thread's batch. Here a thread waits with Atomics.waitAsync, so
 * its event loop runs on meanwhile. Writers of other processes and the job workers' portions
 * still meet at SQLite's lock (and the write intent) as before.
 *
 * A ticket lock in a SharedArrayBuffer: NEXT hands out tickets, SERVING is the ticket whose
 * turn it is. Each connection takes at most one ticket at a time (its driver's mutex) and notes
 * it in its own slot, so a thread that dies holding or awaiting a turn can be skipped
 * (`abandon`) instead of stopping every writer of the process.
 */
/** Node 20 has Atomics.waitAsync; TypeScript's ES2023 library does not declare it yet. */
type WaitAsync = (
  words: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

const NEXT = 0;
const SERVING = 1;
/** A ticket whose holder died while waiting: SERVING steps over it. -1: none. */
const SKIP = 2;
const FIRST_SLOT = 3;
/** Connections that may share one turn: the main thread's and the writer thread's (and spare). */
const SLOTS = 4;

export const createWriterTurn = (): SharedArrayBuffer => {
  const words = new Int32Array(new SharedArrayBuffer(4 * (FIRST_SLOT + SLOTS)));
  words[SKIP] = -1;
  return words.buffer as SharedArrayBuffer;
};

export class WriterTurn {
  private readonly words: Int32Array;
  private readonly slot: number;

  /** `slot`: this connection's own place in the buffer (0 for the main thread's, 1 for the writer thread's). */
  constructor(buffer: SharedArrayBuffer, slot: number) {
    if (slot < 0 || slot >= SLOTS) throw new Error(`No writer-turn slot ${slot}`);
    this.words = new Int32Array(buffer);
    this.slot = FIRST_SLOT + slot;
  }

  /** Resolves once it is this connection's turn (at once when nobody holds or awaits one). */
  async take(): Promise<void> {
    const ticket = Atomics.add(this.words, NEXT, 1);
    // The slot keeps ticket + 1, so 0 means none (a ticket may be 0, or negative once the counter wraps).
    Atomics.store(this.words, this.slot, ticket + 1);
    for (;;) {
      const serving = Atomics.load(this.words, SERVING);
      if (serving === ticket) return;
      const wait = waitAsync(this.words, SERVING, serving);
      if (wait.async) await wait.value;
    }
  }

  /** Ends this connection's turn: the next ticket's holder goes on. */
  give(): void {
    Atomics.store(this.words, this.slot, 0);
    advance(this.words);
  }
}

function advance(words: Int32Array): void {
  const next = Atomics.add(words, SERVING, 1) + 1;
  if (next === Atomics.load(words, SKIP)) {
    Atomics.store(words, SKIP, -1);
    Atomics.add(words, SERVING, 1);
  }
  Atomics.notify(words, SERVING);
}

/**
 * Frees the turn of a connection whose thread has ended without giving it back: its turn ends
 * if it held it, and its ticket is stepped over if it was waiting.
 */
export function abandonTurn(buffer: SharedArrayBuffer, slot: number): void {
  const words = new Int32Array(buffer);
  const noted = Atomics.exchange(words, FIRST_SLOT + slot, 0);
  if (noted === 0) return;
  const ticket = noted - 1;
  if (Atomics.load(words, SERVING) === ticket) return advance(words);
  Atomics.store(words, SKIP, ticket);
  // The turn may have reached the ticket before SKIP said so: then step over it here.
  if (Atomics.load(words, SERVING) === ticket && Atomics.compareExchange(words, SKIP, ticket, -1) === ticket)
    advance(words);
}
