import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { operationsWithExamples, responseExample } from '../support/reference-examples.js';
import { registeredRoutes } from '../support/registered-routes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { shapeDiff } from '../support/shape-diff.js';
import { CASES } from './reference-examples.cases.js';
import { keptFor } from './reference-examples.kept.js';
import { UNCOVERED } from './reference-examples.uncovered.js';
import { buildWorld, type World } from './reference-examples.world.js';

/**
 * The contract test: for every operation promo serves whose reference answer has an example,
 * the example's request (or the nearest one) against a real server, and the answer compared
 * with the example at every depth (test/support/shape-diff.ts). What may differ is in
 * reference-examples.kept.ts, what is not sent in reference-examples.uncovered.ts, each with
 * its reason. SHAPES_DUMP=<file> appends every difference, kept or not, for review.
 */
const template = (path: string) => path.replace(/\{[^}]+\}/g, ':').replace(/:[A-Za-z_]+/g, ':');

/** The served operations (as the reference spells them) whose answer has an example. */
function servedWithExamples(): string[] {
  const served = new Set(registeredRoutes().map((r) => `${r.method} ${template(r.path)}`));
  return [...operationsWithExamples().keys()].filter((op) => {
    const [method = '', path = ''] = op.split(' ');
    return served.has(`${method} ${template(path)}`);
  });
}

describe('every served operation with a reference example is sent, or named with its reason', () => {
  it('covers them all', () => {
    const sent = new Set(CASES.map((c) => c.op));
    const missing = servedWithExamples().filter((op) => !sent.has(op) && !(op in UNCOVERED));
    assert.deepEqual(missing, []);
    assert.deepEqual(
      Object.keys(UNCOVERED).filter((op) => sent.has(op)),
      [],
      'an operation sent is not uncovered',
    );
  });
});

describe('answers in the shape of the reference examples', () => {
  let server: TestServer;
  let world: World;
  before(async () => {
    server = await startTestServer();
    world = await buildWorld(server);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  for (const item of CASES) {
    it(`${item.op}${item.example ? ` (${item.example})` : ''}`, async () => {
      const [method = ''] = item.op.split(' ');
      const { path, body, auth } = item.send(world);
      const res = await server.request(method, path, { body, auth });
      assert.ok(res.status < 300, `${res.status} ${res.text}`);
      item.then?.(res.body, world);
      const status = item.status ?? String(res.status);
      const diff = [
        ...(status === String(res.status) ? [] : [`(status): ${res.status}, the example's is ${status}`]),
        ...shapeDiff(responseExample(item.op, status, item.example), res.body),
      ];
      if (process.env.SHAPES_DUMP)
        appendFileSync(
          process.env.SHAPES_DUMP,
          `### ${item.op}\n${diff.map((d) => `${d}${keptFor(item.op, d) ? '' : '   <-- NOT KEPT'}`).join('\n')}\n`,
        );
      assert.deepEqual(
        diff.filter((line) => !keptFor(item.op, line)),
        [],
      );
    });
  }
});
