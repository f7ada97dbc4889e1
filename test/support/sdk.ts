import sdk from '@voucherify/sdk';
import type { TestServer } from './server.js';

export type ServerSideClient = ReturnType<typeof sdk.VoucherifyServerSide>;

/** The official server-side client (@voucherify/sdk), unchanged, pointed at a test server with its server key. */
export const serverSideClient = (server: TestServer): ServerSideClient =>
  sdk.VoucherifyServerSide({
    applicationId: server.serverKey.app_id,
    secretKey: server.serverKey.app_token,
    apiUrl: server.url,
  });

export type ClientSideClient = ReturnType<typeof sdk.VoucherifyClientSide>;

/** The official client-side client, with the test server's client key and an allowed origin. */
export const clientSideClient = (server: TestServer): ClientSideClient =>
  sdk.VoucherifyClientSide({
    clientApplicationId: server.clientKey.app_id,
    clientSecretKey: server.clientKey.app_token,
    apiUrl: server.url,
    origin: 'https://shop.example',
  });

/**
 * A request body the API accepts but the @voucherify/sdk request types do not describe: the SDK's
 * request types lag behind the reference (they omit fields it documents, such as a loyalty
 * program's `campaign_type` or a transfer's `reason`, and mark optional fields required), and the
 * refusal tests send bodies the API must turn down. The value reaches the SDK method unchanged,
 * typed as the parameter that method declares; only its type is asserted, never its shape.
 */
export const beyondSdkTypes = <T>(value: unknown): T => value as T;
