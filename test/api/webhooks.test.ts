import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { assertMatchesReference } from '../support/openapi.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';

/** The reference's webhooks management API (create-webhook, list-webhooks, get/update/delete-webhook). */
const clock = fixedClock('2024-06-01T08:00:00.000Z');
const base = '/management/v1/projects/proj_promo/webhooks';
const refPath = '/management/v1/projects/{projectId}/webhooks';

describe('webhooks management API', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  it('creates a webhook, shows its secret once, then lists, reads, updates and deletes it', async () => {
    const created = await server.request('POST', base, {
      body: { target_url: 'https://crm.example/hooks', events: ['redemption.succeeded', 'voucher.gift.balance_aded'] },
    });
    assert.equal(created.status, 200);
    const { id, secret } = created.body;
    assert.match(id, /^wh_[0-9A-Za-z]{16}$/);
    assert.match(secret, /^[0-9a-f]{64}$/);
    // The reference's misspelt enum value is stored as its examples spell it.
    assert.deepEqual(created.body, {
      object: 'webhook',
      created_at: '2024-06-01T08:00:00.000Z',
      id,
      events: ['redemption.succeeded', 'voucher.gift.balance_added'],
      target_url: 'https://crm.example/hooks',
      active: true,
      secret,
    });
    const webhook = {
      object: 'webhook',
      created_at: '2024-06-01T08:00:00.000Z',
      id,
      events: ['redemption.succeeded', 'voucher.gift.balance_added'],
      target_url: 'https://crm.example/hooks',
      active: true,
    };

    const list = await server.request('GET', base);
    assert.deepEqual(list.body, { object: 'list', data_ref: 'data', data: [webhook], total: 1 });
    const one = await server.request('GET', `${base}/${id}`);
    assert.deepEqual(one.body, { ...webhook, deliveries: [] });
    assert.ok(!list.text.includes(secret) && !one.text.includes(secret), 'the secret is answered once only');

    clock.advance(1000);
    const updated = await server.request('PUT', `${base}/${id}`, {
      body: { active: false, events: ['publication.succeeded'] },
    });
    assert.deepEqual(updated.body, { ...webhook, events: ['publication.succeeded'], active: false });
    // The reference's enum spells the gift type "balance_aded": its schema is checked on answers without it.
    assertMatchesReference('PUT', `${refPath}/{webhookId}`, 200, updated.body);
    assertMatchesReference('GET', refPath, 200, (await server.request('GET', base)).body);
    const moved = await server.request('PUT', `${base}/${id}`, { body: { target_url: 'http://erp.example:8080/in' } });
    assert.deepEqual(moved.body, {
      ...webhook,
      events: ['publication.succeeded'],
      active: false,
      target_url: 'http://erp.example:8080/in',
    });

    const deleted = await server.request('DELETE', `${base}/${id}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const gone = await server.request('GET', `${base}/${id}`);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, notFoundBody(gone, 'webhook', id));
    assert.deepEqual((await server.request('GET', base)).body, {
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
  });

  it('answers 404 for any project but proj_promo and for unknown webhooks', async () => {
    const other = await server.request('GET', '/management/v1/projects/proj_other/webhooks');
    assert.deepEqual([other.status, other.body], [404, notFoundBody(other, 'project', 'proj_other')]);
    const post = await server.request('POST', '/management/v1/projects/proj_other/webhooks', {
      body: { target_url: 'https://a.example', events: ['redemption.succeeded'] },
    });
    assert.deepEqual([post.status, post.body], [404, notFoundBody(post, 'project', 'proj_other')]);
    for (const method of ['GET', 'DELETE']) {
      const res = await server.request(method, `${base}/wh_unknown`);
      assert.deepEqual([res.status, res.body], [404, notFoundBody(res, 'webhook', 'wh_unknown')]);
    }
    const put = await server.request('PUT', `${base}/wh_unknown`, { body: { active: true } });
    assert.deepEqual([put.status, put.body], [404, notFoundBody(put, 'webhook', 'wh_unknown')]);
  });

  it('refuses bodies that are wrong, with every problem at once', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'target_url is required; events is required'],
      [
        { target_url: 'ftp://files.example/x', events: ['redemption.succeeded'] },
        'target_url must be an absolute http or https URL',
      ],
      [
        { target_url: 'not a url', events: [] },
        'target_url must be an absolute http or https URL; events must name at least one event type',
      ],
      [
        { target_url: 'https://a.example', events: ['redemption.succeeded', 'order.paid'], active: 'yes' },
        'events: unknown event type order.paid; active must be a boolean',
      ],
      [
        { target_url: 7, events: 'redemption.succeeded' },
        'target_url must be a string; events must be an array of event types',
      ],
    ];
    for (const [body, details] of cases) {
      const res = await server.request('POST', base, { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(
        res.body,
        errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }),
      );
    }
    const created = (
      await server.request('POST', base, {
        body: { target_url: 'https://a.example', events: ['redemption.succeeded'] },
      })
    ).body;
    assertMatchesReference('POST', refPath, 200, created);
    const put = await server.request('PUT', `${base}/${created.id}`, { body: { target_url: 'javascript:alert(1)' } });
    assert.deepEqual(
      [put.status, put.body],
      [
        400,
        errorBody(put, {
          code: 400,
          key: 'invalid_payload',
          message: 'Invalid payload',
          details: 'target_url must be an absolute http or https URL',
        }),
      ],
    );
  });

  it('opens to server keys only', async () => {
    const res = await server.request('GET', base, { auth: 'none' });
    assert.deepEqual(
      [res.status, res.body],
      [
        401,
        errorBody(res, {
          code: 401,
          key: 'unauthorized',
          message: 'Unauthorized',
          details: 'Send X-App-Id and X-App-Token, or an OAuth bearer token',
        }),
      ],
    );
    const client = await server.request('GET', base, { auth: 'client' });
    assert.equal(client.status, 401);
  });
});
