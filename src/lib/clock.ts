/** Time as the services see it. Tests inject a clock they can move. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until a test moves it. */
export function fixedClock(start: Date | string): Clock & { advance(ms: number): void; set(at: Date | string): void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (at) => {
      current = new Date(at).getTime();
    },
  };
}

/** ISO 8601 UTC with milliseconds, the one time format stored and answered. */
export const isoNow = (clock: Clock): string => clock.now().toISOString();
