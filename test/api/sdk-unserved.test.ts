import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  beyondSdkTypes,
  clientSideClient,
  serverSideClient,
  type ClientSideClient,
  type ServerSideClient,
} from '../support/sdk.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Call = [name: string, method: string, path: string, call: () => Promise<unknown>];

/**
 * Every @voucherify/sdk method whose operation promo does not serve (docs/roadmap.md):
 * each answers 404 `not_found` "No route for <method> <path>", as the SDK sends it, never a
 * 500, a 405, or another operation's answer (POST /v1/vouchers/import used to reach
 * POST /v1/vouchers/{code} and try to create a voucher coded `import`).
 */
describe('@voucherify/sdk methods promo does not serve', () => {
  let server: TestServer;
  let sdk: ServerSideClient;
  let browser: ClientSideClient;
  before(async () => {
    server = await startTestServer();
    sdk = serverSideClient(server);
    browser = clientSideClient(server);
    const made = await server.request('POST', '/v1/vouchers/UNS-1', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    assert.equal(made.status, 200, made.text);
  });
  after(async () => {
    assert.deepEqual(server.logged, []);
    await server.close();
  });

  const order = { amount: 1000 };
  const customer = { source_id: 'uns-ann' };
  const calls = (): Call[] => {
    const s = sdk;
    const c = browser;
    return [
      [
        'campaigns.qualifications.examine',
        'POST',
        '/v1/campaigns/qualification',
        () => s.campaigns.qualifications.examine(beyondSdkTypes({ customer, order }), { limit: 5 }),
      ],
      [
        'vouchers.import',
        'POST',
        '/v1/vouchers/import',
        () =>
          s.vouchers.import(
            beyondSdkTypes([
              { code: 'UNS-IMP', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
            ]),
          ),
      ],
      [
        'vouchers.qualifications.examine',
        'POST',
        '/v1/vouchers/qualification',
        () => s.vouchers.qualifications.examine(beyondSdkTypes({ customer, order }), { limit: 5 }),
      ],
      [
        'customers.updateConsents',
        'PUT',
        '/v1/customers/uns-ann/consents',
        () => s.customers.updateConsents('uns-ann', { unsubscribed: true }),
      ],
      [
        'customers.listRedeemables',
        'GET',
        '/v1/customers/uns-ann/redeemables',
        () => s.customers.listRedeemables('uns-ann', { limit: 5 }),
      ],
      ['consents.list', 'GET', '/v1/consents', () => s.consents.list()],
      [
        'validationRules.validate',
        'POST',
        '/v1/validation-rules/val_x/validation',
        () => s.validationRules.validate('val_x', { order }),
      ],
      ['metadataSchemas.list', 'GET', '/v1/metadata-schemas', () => s.metadataSchemas.list()],
      ['metadataSchemas.get', 'GET', '/v1/metadata-schemas/voucher', () => s.metadataSchemas.get('voucher')],
      // Not in the real client-side API (docs/deviations.md): a public client key must not list codes or write customers.
      ['client listVouchers', 'GET', '/client/v1/vouchers', () => c.listVouchers({ limit: 5 })],
      ['client createCustomer', 'POST', '/client/v1/customers', () => c.createCustomer({ source_id: 'uns-bob' })],
      ['client listConsents', 'GET', '/client/v1/consents', () => c.listConsents()],
      [
        'client updateConsents',
        'PUT',
        '/client/v1/customers/uns-ann/consents',
        () => c.updateConsents('uns-ann', { unsubscribed: true }),
      ],
    ];
  };

  it('answers each with 404 not_found naming the path the SDK sent', async () => {
    const answers: string[] = [];
    for (const [name, method, path, call] of calls()) {
      await assert.rejects(call(), (error: Record<string, unknown>) => {
        answers.push(`${name}: ${error.code} ${error.key} ${error.message} ${error.details}`);
        return true;
      });
      assert.equal(answers.at(-1), `${name}: 404 not_found Resource not found No route for ${method} ${path}`);
    }
    assert.equal(answers.length, 13);
  });

  it('leaves the database as it was: no voucher coded import or qualification, no customer made', async () => {
    const vouchers = await server.request('GET', '/v1/vouchers');
    assert.deepEqual(
      vouchers.body.vouchers.map((v: { code: string }) => v.code),
      ['UNS-1'],
    );
    const customers = await server.request('GET', '/v1/customers');
    assert.equal(customers.body.total, 0);
  });

  it('still takes these words as voucher codes in another case, and serves the other methods of those paths', async () => {
    const upper = await server.request('POST', '/v1/vouchers/IMPORT', {
      body: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
    });
    assert.deepEqual([upper.status, upper.body.code], [200, 'IMPORT']);
    const redemptions = await server.request('GET', '/v1/vouchers/UNS-1/redemption');
    assert.deepEqual([redemptions.status, redemptions.body.total], [200, 0]);
    const orders = await server.request('GET', '/v1/orders/export');
    assert.deepEqual(
      [orders.status, orders.body.key, orders.body.details],
      [404, 'not_found', 'Cannot find order with id export'],
    );
  });
});
