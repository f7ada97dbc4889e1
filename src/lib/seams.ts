/**
 * In-transaction extension points. A module declares a seam (a typed key) and fires it inside
 * the transaction of its own change; other modules subscribe to it at composition, through the
 * registry every Deps carries. The firing module never imports its subscribers (so no import
 * cycle), and a subscriber's writes commit or roll back with the change that fired it: a
 * subscriber that throws fails that change.
 *
 * `Trx` is the transaction type the seam hands to subscribers (lib knows no database types).
 */
export interface SeamKey<Trx, Payload> {
  readonly name: string;
  /** Carries the types only; never set. */
  readonly types?: (trx: Trx, payload: Payload) => void;
}

export const seam = <Trx, Payload>(name: string): SeamKey<Trx, Payload> => ({ name });

export type Subscriber<Trx, Payload> = (trx: Trx, payload: Payload) => Promise<void>;

type AnySubscriber = Subscriber<unknown, unknown>;

export class Seams {
  private readonly subscribers = new Map<SeamKey<unknown, unknown>, AnySubscriber[]>();
  private loading: Promise<void> = Promise.resolve();

  /**
   * Subscriptions still being made: the composition root loads the subscribing modules by lazy import
   * (root/subscriptions.ts), which is asynchronous, so `fire` waits for them first. Once they
   * are loaded that wait is one resolved promise.
   */
  whenLoaded(loading: Promise<void>): void {
    const before = this.loading;
    this.loading = Promise.all([before, loading]).then(() => undefined);
    // A failed load surfaces at the next fire (which then fails), not as an unhandled rejection.
    this.loading.catch(() => undefined);
  }

  /** Adds a subscriber; returns the function that removes it again. */
  subscribe<Trx, Payload>(key: SeamKey<Trx, Payload>, subscriber: Subscriber<Trx, Payload>): () => void {
    const list = this.subscribers.get(key as SeamKey<unknown, unknown>) ?? [];
    list.push(subscriber as AnySubscriber);
    this.subscribers.set(key as SeamKey<unknown, unknown>, list);
    return () => {
      const at = list.indexOf(subscriber as AnySubscriber);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /** Calls every subscriber of the seam in the order they subscribed, one after another (after the loading ones are in). */
  async fire<Trx, Payload>(key: SeamKey<Trx, Payload>, trx: Trx, payload: Payload): Promise<void> {
    await this.loading;
    for (const subscriber of [...(this.subscribers.get(key as SeamKey<unknown, unknown>) ?? [])]) {
      await subscriber(trx, payload);
    }
  }
}
