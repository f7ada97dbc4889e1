import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { discountCampaign } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';

// jsqr is CommonJS: under Node's ESM its default import is the function its types call `default`.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

describe('GET /v1/assets/{qr|barcode}/{id}', () => {
  let server: TestServer;
  let voucher: { code: string; assets: { qr: { id: string; url: string }; barcode: { id: string; url: string } } };
  before(async () => {
    server = await startTestServer();
    await server.request('POST', '/v1/campaigns', { body: discountCampaign('Printed') });
    voucher = (
      await server.request('POST', '/v1/campaigns/Printed/vouchers?vouchers_count=1', {
        body: { code_config: { prefix: 'QR-', length: 8 } },
      })
    ).body;
  });
  after(() => server.close());

  const fetchAsset = (
    url: string,
    headers: Record<string, string> = {
      'X-App-Id': server.serverKey.app_id,
      'X-App-Token': server.serverKey.app_token,
    },
  ) => fetch(`${server.url}${url}`, { headers });

  it("answers the voucher's QR code as a PNG that decodes to its code", async () => {
    const res = await fetchAsset(voucher.assets.qr.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('cache-control'), 'private, max-age=86400');
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    assert.equal(decoded?.data, voucher.code);
  });

  it('answers its Code 128 barcode as a PNG', async () => {
    const res = await fetchAsset(voucher.assets.barcode.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    assert.ok(png.width > png.height && png.height > 20, `${png.width}x${png.height}`);
  });

  it('answers 404 for an id that names no voucher, and for text that is no id', async () => {
    for (const id of [Buffer.from('NO-SUCH-CODE').toString('base64url'), 'not=base64', 'QR']) {
      const res = await fetchAsset(`/v1/assets/qr/${encodeURIComponent(id)}`);
      assert.equal(res.status, 404);
      const body = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(body, {
        code: 404,
        key: 'not_found',
        message: 'Resource not found',
        details: `Cannot find asset with id ${id}`,
        resource_id: id,
        resource_type: 'asset',
        request_id: res.headers.get('x-request-id'),
      });
    }
  });

  it('opens to server keys and tokens with the assets scope only', async () => {
    assert.equal((await fetchAsset(voucher.assets.qr.url, {})).status, 401);
    const tokenOf = async (scope: string) =>
      (
        await server.request('POST', '/v1/oauth/token', {
          raw: `grant_type=client_credentials&scope=${scope}`,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })
      ).body.access_token as string;
    assert.equal(
      (await fetchAsset(voucher.assets.qr.url, { Authorization: `Bearer ${await tokenOf('assets')}` })).status,
      200,
    );
    assert.equal(
      (await fetchAsset(voucher.assets.barcode.url, { Authorization: `Bearer ${await tokenOf('vouchers')}` })).status,
      403,
    );
  });
});
