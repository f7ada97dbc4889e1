/**
 * In-transaction extension points. A module declares a seam (a typed key) and fires it inside
 * the transaction of its own change; other modules subscribe to it at composition, through the
 * registry every Deps carries. The firing module never imports its subscribers (so no import
 * cycle), and a subscriber's writes commit or roll back with the change that fired it: a
 * subscriber that throws fails that change. The same registry carries questions (below): a
 * read one module answers for another that may not import it.
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

/**
 * A question a module asks of another that it may not import (a read, answered by one module
 * wired at composition, like a seam's subscribers): the events module asks the redemptions
 * module for the records its redemption events name. `Db` is the handle the answer reads with.
 */
export interface QuestionKey<Db, Ask, Answer> {
  readonly name: string;
  /** Carries the types only; never set. */
  readonly types?: (db: Db, ask: Ask) => Answer;
}

export const question = <Db, Ask, Answer>(name: string): QuestionKey<Db, Ask, Answer> => ({ name });

export type Answerer<Db, Ask, Answer> = (db: Db, ask: Ask) => Promise<Answer>;

type AnyAnswerer = Answerer<unknown, unknown, unknown>;

export class Seams {
  private readonly subscribers = new Map<SeamKey<unknown, unknown>, AnySubscriber[]>();
  private readonly answerers = new Map<QuestionKey<unknown, unknown, unknown>, AnyAnswerer>();
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

  /** Makes `answerer` the one that answers the question. */
  answer<Db, Ask, Answer>(key: QuestionKey<Db, Ask, Answer>, answerer: Answerer<Db, Ask, Answer>): void {
    this.answerers.set(key as QuestionKey<unknown, unknown, unknown>, answerer as AnyAnswerer);
  }

  /** The answer to the question (once the answering modules are loaded); a question nobody answers is a defect. */
  async ask<Db, Ask, Answer>(key: QuestionKey<Db, Ask, Answer>, db: Db, ask: Ask): Promise<Answer> {
    await this.loading;
    const answerer = this.answerers.get(key as QuestionKey<unknown, unknown, unknown>);
    if (!answerer) throw new Error(`no module answers ${key.name}`);
    return (await answerer(db, ask)) as Answer;
  }

  /** Calls every subscriber of the seam in the order they subscribed, one after another (after the loading ones are in). */
  async fire<Trx, Payload>(key: SeamKey<Trx, Payload>, trx: Trx, payload: Payload): Promise<void> {
    await this.loading;
    for (const subscriber of [...(this.subscribers.get(key as SeamKey<unknown, unknown>) ?? [])]) {
      await subscriber(trx, payload);
    }
  }
}
