import { fileURLToPath } from 'node:url';

/**
 * What the benchmarks that drive `promo serve` over HTTP share: the binary, the server key
 * they register through PROMO_APP_ID / PROMO_APP_TOKEN, seeding POSTs, and random picks.
 */
export const PROMO_BIN = fileURLToPath(new URL('../../../bin/promo', import.meta.url));
export const BENCH_KEY_ENV = { PROMO_APP_ID: 'bench', PROMO_APP_TOKEN: 'bench' };
export const benchHeaders = { 'X-App-Id': 'bench', 'X-App-Token': 'bench' };

/** A whole number below n. */
export const pick = (n: number): number => Math.floor(Math.random() * n);

/** What a seeding POST answers unless the caller names a shape: the created resource's id and the rest. */
export interface Created {
  id: string;
  [field: string]: unknown;
}

/** A seeding POST with the bench key; anything but 200 ends the bench. Answers the body. */
export async function post<T = Created>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...benchHeaders, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
