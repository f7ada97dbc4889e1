import sdk from '@voucherify/sdk';
import type { TestServer } from './server.js';

export type ServerSideClient = ReturnType<typeof sdk.VoucherifyServerSide>;

/** The official server-side client (@voucherify/sdk), unchanged, pointed at a test server with its server key. */
export const serverSideClient = (server: TestServer): ServerSideClient =>
  sdk.VoucherifyServerSide({ applicationId: server.serverKey.app_id, secretKey: server.serverKey.app_token, apiUrl: server.url });
