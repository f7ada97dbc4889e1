import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixedClock } from '../../src/lib/clock.js';
import { errorBody, notFoundBody, startTestServer, type TestServer } from '../support/server.js';
import { customerObject } from '../modules/customers/fixtures.js';
import { assertCustomerObject } from '../modules/customers/reference.js';
import { sqliteOf } from '../support/sqlite.js';

const T0 = '2024-03-01T10:00:00.000Z';

describe('customers: create, upsert, get, update, delete', () => {
  let server: TestServer;
  const clock = fixedClock(T0);
  before(async () => {
    server = await startTestServer({ clock });
  });
  after(() => server.close());

  const full = {
    source_id: 'crm-1',
    name: 'Bob Smith',
    description: 'A frequent customer',
    email: 'bob.smith@email.com',
    phone: '+1 933 222 3333',
    birthdate: '1990-01-31',
    address: {
      city: 'New York',
      state: 'NY',
      line_1: '123 Main St.',
      line_2: 'APT 3',
      country: 'United States',
      postal_code: '10001',
    },
    metadata: { lang: 'en', vip: true, tags: ['a'] },
  };

  it('creates a customer with every field and the zeroed summary, loyalty and referrals', async () => {
    clock.set(T0);
    const res = await server.request('POST', '/v1/customers', { body: full });
    assert.equal(res.status, 200);
    assert.match(res.body.id, /^cust_[0-9A-Za-z]{16}$/);
    assert.deepEqual(res.body, customerObject({ id: res.body.id, created_at: T0, ...full }));
    assertCustomerObject(res.body);
  });

  it('updates the customer with a known source_id, keeping its id and what was not sent', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', {
      body: { source_id: 'crm-2', name: 'Ann', email: 'ann@x.io' },
    });
    clock.set('2024-03-02T08:00:00.000Z');
    const res = await server.request('POST', '/v1/customers', {
      body: { source_id: 'crm-2', phone: '555', email: null },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body,
      customerObject({
        id: created.body.id,
        source_id: 'crm-2',
        name: 'Ann',
        phone: '555',
        created_at: T0,
        updated_at: '2024-03-02T08:00:00.000Z',
      }),
    );
  });

  it('leaves updated_at alone when an upsert changes nothing', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { source_id: 'crm-3', name: 'Same' } });
    clock.set('2024-03-05T00:00:00.000Z');
    const res = await server.request('POST', '/v1/customers', { body: { source_id: 'crm-3', name: 'Same' } });
    assert.deepEqual(res.body, created.body);
  });

  it('accepts birthday as the old spelling of birthdate, and refuses two different dates', async () => {
    clock.set(T0);
    const res = await server.request('POST', '/v1/customers', { body: { birthday: '2000-02-29' } });
    assert.deepEqual(res.body, customerObject({ id: res.body.id, birthdate: '2000-02-29', created_at: T0 }));
    const bad = await server.request('POST', '/v1/customers', {
      body: { birthday: '2000-02-29', birthdate: '2000-03-01' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body,
      errorBody(bad, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'birthdate and birthday are the same field; when both are given they must be equal',
      }),
    );
  });

  it('creates a customer without a source_id from an empty body', async () => {
    clock.set(T0);
    const res = await server.request('POST', '/v1/customers', { body: {} });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, customerObject({ id: res.body.id, created_at: T0 }));
  });

  it('keeps the given address fields, null ones too, and stores an empty address as null', async () => {
    clock.set(T0);
    const res = await server.request('POST', '/v1/customers', { body: { address: { city: 'Oslo', state: null } } });
    assert.deepEqual(res.body.address, { city: 'Oslo', state: null });
    const empty = await server.request('POST', '/v1/customers', { body: { address: {} } });
    assert.equal(empty.body.address, null);
  });

  it('updates through POST with a known id; an unknown id is 404', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { name: 'By id' } });
    clock.set('2024-03-01T10:00:01.000Z');
    const res = await server.request('POST', '/v1/customers', { body: { id: created.body.id, description: 'found' } });
    assert.deepEqual(
      res.body,
      customerObject({
        id: created.body.id,
        name: 'By id',
        description: 'found',
        created_at: T0,
        updated_at: '2024-03-01T10:00:01.000Z',
      }),
    );
    const missing = await server.request('POST', '/v1/customers', { body: { id: 'cust_nope' } });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, notFoundBody(missing, 'customer', 'cust_nope'));
  });

  it('gets a customer by id and by source_id', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { source_id: 'get me/1', name: 'G' } });
    const byId = await server.request('GET', `/v1/customers/${created.body.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, created.body);
    const bySource = await server.request('GET', `/v1/customers/${encodeURIComponent('get me/1')}`);
    assert.deepEqual(bySource.body, created.body);
    assertCustomerObject(byId.body);
  });

  it('answers 404 with the whole error body for an unknown customer', async () => {
    const res = await server.request('GET', '/v1/customers/jck-wbh');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, notFoundBody(res, 'customer', 'jck-wbh'));
  });

  it('PUT changes the given fields, clears nulls, replaces address and metadata, keeps the rest', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { ...full, source_id: 'put-1' } });
    clock.set('2024-04-01T00:00:00.000Z');
    const res = await server.request('PUT', '/v1/customers/put-1', {
      body: {
        name: 'Robert',
        phone: null,
        address: { city: 'Boston' },
        metadata: { lang: 'pl' },
        object: 'customer',
        summary: {},
      },
    });
    assert.equal(res.status, 200);
    const { phone: _phone, ...rest } = full;
    assert.deepEqual(
      res.body,
      customerObject({
        ...rest,
        id: created.body.id,
        source_id: 'put-1',
        name: 'Robert',
        address: { city: 'Boston' },
        metadata: { lang: 'pl' },
        created_at: T0,
        updated_at: '2024-04-01T00:00:00.000Z',
      }),
    );
    assert.deepEqual((await server.request('GET', `/v1/customers/${created.body.id}`)).body, res.body);
  });

  it('PUT may change the source_id, but not to one another customer holds (409)', async () => {
    clock.set(T0);
    const a = await server.request('POST', '/v1/customers', { body: { source_id: 'src-a' } });
    await server.request('POST', '/v1/customers', { body: { source_id: 'src-b' } });
    const moved = await server.request('PUT', `/v1/customers/${a.body.id}`, { body: { source_id: 'src-c' } });
    assert.equal(moved.body.source_id, 'src-c');
    const sameAsBefore = await server.request('PUT', '/v1/customers/src-c', {
      body: { source_id: 'src-c', name: 'C' },
    });
    assert.equal(sameAsBefore.status, 200);
    const taken = await server.request('PUT', '/v1/customers/src-c', { body: { source_id: 'src-b' } });
    assert.equal(taken.status, 409);
    assert.deepEqual(
      taken.body,
      errorBody(taken, {
        code: 409,
        key: 'duplicate_found',
        message: 'Duplicated resource found',
        details: 'Duplicated customer exists with source_id src-b',
        resource_type: 'customer',
      }),
    );
    assert.equal((await server.request('GET', `/v1/customers/${a.body.id}`)).body.source_id, 'src-c');
  });

  it('PUT of an unknown customer is 404', async () => {
    const res = await server.request('PUT', '/v1/customers/nobody', { body: { name: 'x' } });
    assert.deepEqual(res.body, notFoundBody(res, 'customer', 'nobody'));
  });

  it('DELETE answers 204 without a body; afterwards the customer is 404 and its source_id free', async () => {
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { source_id: 'del-1' } });
    const res = await server.request('DELETE', '/v1/customers/del-1');
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await server.request('GET', `/v1/customers/${created.body.id}`)).status, 404);
    const again = await server.request('DELETE', `/v1/customers/${created.body.id}`);
    assert.deepEqual(again.body, notFoundBody(again, 'customer', created.body.id));
    const recreated = await server.request('POST', '/v1/customers', { body: { source_id: 'del-1' } });
    assert.notEqual(recreated.body.id, created.body.id);
  });

  it('DELETE refuses with 400 resource_in_use while another record still references the customer', async () => {
    // Stands in for a later module's table with a foreign key to customers (id).
    sqliteOf(server.deps).exec('CREATE TABLE test_holder (customer_id TEXT NOT NULL REFERENCES customers (id))');
    clock.set(T0);
    const created = await server.request('POST', '/v1/customers', { body: { source_id: 'held' } });
    sqliteOf(server.deps).prepare('INSERT INTO test_holder (customer_id) VALUES (?)').run(created.body.id);
    const res = await server.request('DELETE', '/v1/customers/held');
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'resource_in_use',
        message: 'Resource in use',
        details: `Customer ${created.body.id} is still referenced by other records`,
      }),
    );
    assert.deepEqual((await server.request('GET', '/v1/customers/held')).body, created.body);
    const activity = await server.request('GET', '/v1/customers/held/activity');
    assert.deepEqual(
      activity.body.data.map((e: { type: string }) => e.type),
      ['customer.created'],
    );
    sqliteOf(server.deps).exec('DROP TABLE test_holder');
  });

  it('refuses a body with every problem listed in details', async () => {
    const res = await server.request('POST', '/v1/customers', {
      body: {
        source_id: '',
        name: 5,
        email: 'not-an-email',
        birthdate: '2021-02-30',
        address: { city: 7, zip: '1' },
        metadata: ['x'],
      },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body,
      errorBody(res, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: [
          'source_id must not be empty',
          'name must be a string',
          'email must be a valid e-mail address',
          'birthdate must be a date in YYYY-MM-DD format',
          'address.city must be a string',
          'address has unknown field(s): zip; allowed: city, state, line_1, line_2, country, postal_code',
          'metadata must be an object',
        ].join('; '),
      }),
    );
  });

  it('refuses a body that is not an object, metadata null and a date-time birthdate', async () => {
    for (const [body, details] of [
      [[{ name: 'a' }], 'The body must be a JSON object'],
      [{ metadata: null }, 'metadata must be an object'],
      [{ birthdate: '1990-01-01T00:00:00Z' }, 'birthdate must be a date in YYYY-MM-DD format'],
      [{ address: 'Main St' }, 'address must be an object'],
    ] as const) {
      const res = await server.request('POST', '/v1/customers', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(
        res.body,
        errorBody(res, { code: 400, key: 'invalid_payload', message: 'Invalid payload', details }),
      );
    }
    const put = await server.request('PUT', '/v1/customers/anyone', { body: { email: 'x@' } });
    assert.deepEqual(
      put.body,
      errorBody(put, {
        code: 400,
        key: 'invalid_payload',
        message: 'Invalid payload',
        details: 'email must be a valid e-mail address',
      }),
    );
    assert.deepEqual(server.logged, []);
  });

  it('creates one customer when many requests upsert the same new source_id at once', async () => {
    clock.set(T0);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request('POST', '/v1/customers', { body: { source_id: 'race-1', metadata: { n: i } } }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    const list = await server.request('GET', '/v1/customers?limit=100');
    assert.equal(list.body.customers.filter((c: { source_id?: string }) => c.source_id === 'race-1').length, 1);
    const activity = await server.request('GET', `/v1/customers/race-1/activity?limit=100&type=customer.created`);
    assert.equal(activity.body.data.length, 1);
  });

  it('opens to an OAuth token with the customers scope, not to one without it', async () => {
    const token = async (scope: string) =>
      (
        await server.request('POST', '/v1/oauth/token', {
          raw: `grant_type=client_credentials&scope=${scope}`,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })
      ).body.access_token as string;
    const ok = await server.request('POST', '/v1/customers', {
      body: { name: 'oauth' },
      auth: { bearer: await token('customers') },
    });
    assert.equal(ok.status, 200);
    const refused = await server.request('GET', '/v1/customers', { auth: { bearer: await token('products') } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.key, 'missing_required_permission');
  });
});
