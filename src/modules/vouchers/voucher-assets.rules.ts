/**
 * A voucher's asset id (`assets.qr.id`, `assets.barcode.id`): its code in base64url. The real
 * API encrypts the code into an opaque token for its public asset host; promo serves assets
 * under /v1 with credentials, so the id needs no secret of its own.
 */
export const assetIdOf = (code: string): string => Buffer.from(code, 'utf8').toString('base64url');

/** The code an asset id names, or undefined for text that is not one. */
export function codeOfAssetId(id: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const code = Buffer.from(id, 'base64url').toString('utf8');
  return assetIdOf(code) === id ? code : undefined;
}

export const assetOf = (kind: 'qr' | 'barcode', code: string) => {
  const id = assetIdOf(code);
  return { id, url: `/v1/assets/${kind}/${id}` };
};
