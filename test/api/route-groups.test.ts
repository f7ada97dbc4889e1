import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Router } from '@koa/router';
import type { AppState } from '../../src/http/context.js';
import { groupOf } from '../../src/http/route-groups.js';
import { routeModules } from '../../src/http/routes.js';
import { startTestServer } from '../support/server.js';

/**
 * Requests are matched only against the routes of their path's group (http/route-groups.ts):
 * every route must fall in the group of every path it matches, or a request would miss it.
 */
describe('route groups', () => {
  it('puts every route in the group of the paths it matches, whatever their case or trailing slash', async () => {
    const server = await startTestServer();
    try {
      const router = new Router<AppState>();
      for (const register of routeModules) register(router, server.deps);
      assert.ok(router.stack.length > 150, `${router.stack.length} routes`);
      for (const layer of router.stack) {
        const path = (layer.path as string).replace(/:[A-Za-z_]+/g, 'x-1');
        assert.ok(layer.match(path), `${layer.path} matches ${path}`);
        for (const variant of [path, path.toUpperCase(), `${path}/`]) {
          if (layer.match(variant))
            assert.equal(groupOf(variant), groupOf(layer.path as string), `${layer.path} / ${variant}`);
        }
      }
      assert.deepEqual(
        [
          '/v1/vouchers/A-1',
          '/client/v1/validations',
          '/management/v1/projects/p/stacking-rules',
          '/health',
          '/V1/Vouchers/',
        ].map(groupOf),
        ['v1/vouchers', 'client/v1/validations', 'management/v1/projects', 'health', 'v1/vouchers'],
      );
    } finally {
      await server.close();
    }
  });

  it('answers through the groups as the whole router did: a route, a parameter, 405 with Allow, 404', async () => {
    const server = await startTestServer();
    try {
      const created = await server.request('POST', '/v1/vouchers/GROUP-1', {
        body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
      });
      assert.equal(created.status, 200, created.text);
      const read = await server.request('GET', '/V1/VOUCHERS/GROUP-1/');
      assert.deepEqual([read.status, read.body.code], [200, 'GROUP-1']);
      const patch = await server.request('PATCH', '/v1/vouchers/GROUP-1');
      assert.equal(patch.status, 405, patch.text);
      assert.equal(patch.body.key, 'method_not_allowed');
      const nowhere = await server.request('GET', '/v1/nowhere');
      assert.deepEqual(
        [nowhere.status, nowhere.body.key, nowhere.body.details],
        [404, 'not_found', 'No route for GET /v1/nowhere'],
      );
    } finally {
      await server.close();
    }
  });
});
