/**
 * The mutation sweep: each write route's VALID body mutated one field at a time, at every depth
 * (test/support/mutations.ts); each list route's query parameters at their boundaries; each
 * route's path ids made odd. robustness.test.ts refuses most bodies at their first field; this
 * one reaches the code behind the schemas. Every answer is a success or the documented error
 * body from the catalogue (never a 500); a refused request leaves the database as it was; a
 * success did not store a value the reference's request schema refuses (where the valid body
 * satisfies it); a bulk job accepted with such a value stores nothing of it.
 * Mutations are sampled deterministically (PROMO_MUTATIONS_PER_ROUTE) to keep the run near a minute;
 * PROMO_MUTATIONS_PER_ROUTE=100000 sends every mutation (15,801 requests in all, ~100 s).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorCatalogue } from '../../src/lib/errors.js';
import { fingerprintWatch } from '../support/db.js';
import { assertErrorBody } from '../support/error-bodies.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import {
  fillPath,
  ODD_IDS,
  QUERY_VARIANTS,
  WRITE_ROUTES,
  seedResources,
  type Ids,
} from '../support/mutation-routes.js';
import { mutationsOf, sample, type Json } from '../support/mutations.js';
import { referenceRequestErrors } from '../support/openapi.js';
import { registeredRoutes } from '../support/registered-routes.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.js';
import { sqliteOf } from '../support/sqlite.js';

const MUTATIONS_PER_ROUTE = Number(process.env.PROMO_MUTATIONS_PER_ROUTE ?? 100);

let sent = 0;

/** Empty when the answer keeps the house rule; otherwise what it broke. */
function problemsOf(res: TestResponse, what: string, changed: boolean): string[] {
  try {
    assertErrorBody(res, what);
  } catch (error) {
    return [(error as Error).message.split('\n')[0] as string];
  }
  if (res.status < 400) return [];
  const entry = errorCatalogue[res.body.key as keyof typeof errorCatalogue];
  if (!entry || entry.message !== res.body.message)
    return [`${what}: ${res.status} key ${res.body.key} / "${res.body.message}" is not in the catalogue`];
  // A refused redemption or rollback is stored as a failed one (rf_, rrf_; voucherify-facts 2.9), and its answer names it.
  const failedRedemption =
    ['redemption', 'redemption_rollback'].includes(res.body.resource_type) &&
    /^rr?f_/.test(String(res.body.resource_id));
  return changed && !failedRedemption
    ? [`${what}: refused (${res.status} ${res.body.key}: ${res.body.details}) but changed the database`]
    : [];
}

describe('mutations of valid bodies, query boundaries and odd ids answer documented errors and write nothing on refusal', () => {
  let server: TestServer;
  let runner: ReturnType<typeof testRunner>;
  let ids: Ids;
  let fingerprint: () => string;
  const started = Date.now();

  before(async () => {
    server = await startTestServer();
    runner = testRunner(server.deps);
    ids = await seedResources(server);
    fingerprint = fingerprintWatch(sqliteOf(server.deps));
  });
  after(async () => {
    await runner.stop();
    await server.close();
    console.log(`mutation sweep: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  /** The fingerprint when the jobs were last seen idle (no job starts but by a committed write). */
  let idleAt = '';

  /**
   * The fingerprint once the jobs earlier requests started have ended (their workers' writes
   * are no refused request's doing). Unchanged since they were last seen idle, nothing was
   * enqueued since: the count is spared (a round trip each request on PostgreSQL).
   */
  async function settled(): Promise<string> {
    if (fingerprint() === idleAt) return idleAt;
    const running = sqliteOf(server.deps)
      .prepare("SELECT count(*) FROM async_actions WHERE status IN ('ENQUEUED', 'IN_PROGRESS')")
      .pluck();
    while ((running.get() as number) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    idleAt = fingerprint();
    return idleAt;
  }

  /** One request; a refusal is checked against the database as it was before it. */
  async function send(
    method: string,
    path: string,
    raw?: string,
    auth: 'server' | 'client' = 'server',
  ): Promise<{ res: TestResponse; problems: string[] }> {
    const before = await settled();
    sent += 1;
    const res = await server.request(
      method,
      path,
      raw === undefined ? { auth } : { auth, raw, headers: { 'Content-Type': 'application/json' } },
    );
    const changed = res.status >= 400 && fingerprint() !== before;
    return {
      res,
      problems: problemsOf(
        res,
        `${method} ${path.slice(0, 200)}${raw === undefined ? '' : ` with ${raw.slice(0, 120)}`}`,
        changed,
      ),
    };
  }

  /** A bulk job's answer: waits for its end (its worker writes on a connection of its own); did it store anything? */
  async function jobStored(res: TestResponse): Promise<boolean> {
    const id = res.body?.async_action_id as string | undefined;
    if (res.status !== 202 || !id) return false;
    const job = await waitForJob(server, id);
    return (job.result?.done_count ?? 0) > 0;
  }

  WRITE_ROUTES.forEach((route, routeIndex) => {
    it(`${route.method} ${route.label ?? route.path}: mutated bodies`, async () => {
      let n = 0;
      // `{n}` in a body becomes a new number on every request, so unique names stay unique.
      const numbered = (raw: string) => raw.replaceAll('{n}', String((n += 1)));
      const path = () => numbered(fillPath(route.path, ids));
      const valid = route.body(ids);
      const baseline = await send(route.method, path(), numbered(JSON.stringify(valid)), route.auth);
      assert.ok(baseline.res.status < 300, `the valid body is refused: ${baseline.res.status} ${baseline.res.text}`);
      await jobStored(baseline.res);
      const reference = route.reference;
      const judged = reference !== undefined && referenceRequestErrors(route.method, reference, valid)?.length === 0;
      const problems: string[] = [];
      for (const mutation of sample(mutationsOf(valid), MUTATIONS_PER_ROUTE, routeIndex + 1)) {
        const { res, problems: found } = await send(route.method, path(), numbered(mutation.raw), route.auth);
        problems.push(...found.map((p) => p.replace(/ with .*?: /, ` with ${mutation.label}: `)));
        const refusedByReference =
          judged &&
          (referenceRequestErrors(route.method, reference, mutation.body as Json) ?? []).filter((e) =>
            e.startsWith(`/${mutation.path.join('/')}`),
          );
        const stored = res.status === 202 ? await jobStored(res) : res.status < 300;
        if (stored && refusedByReference && refusedByReference.length > 0 && !route.lenient?.includes(mutation.label)) {
          problems.push(
            `${route.method} ${route.path} with ${mutation.label}: stored (${res.status}) what the reference refuses: ${refusedByReference.join('; ')}`,
          );
        }
      }
      assert.deepEqual(problems, []);
    });
  });

  const routes = registeredRoutes();
  const authOf = (path: string) => (path.startsWith('/client/') ? 'client' : 'server');

  it('every GET route answers each query parameter at its boundaries', async () => {
    const problems: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const path = fillPath(route.path, ids);
      for (const query of QUERY_VARIANTS)
        problems.push(...(await send('GET', `${path}?${query}`, undefined, authOf(route.path))).problems);
    }
    assert.deepEqual(problems, []);
  });

  it('every route answers odd path ids, one at a time', async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
      for (const name of names) {
        for (const odd of ODD_IDS) {
          // A dot segment climbs to the parent's route: DELETE /v1/loyalties/Club/rewards/.. would delete Club.
          if (route.method === 'DELETE' && odd === '%2E%2E') continue;
          const path = fillPath(route.path.replace(`:${name}`, odd), ids);
          const raw = route.method === 'POST' || route.method === 'PUT' ? '{}' : undefined;
          problems.push(...(await send(route.method, path, raw, authOf(route.path))).problems);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('logged no internal error', () => assert.deepEqual(server.logged, []));
});
