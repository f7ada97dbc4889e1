import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import type { Deps } from '../../app/deps.js';
import { AppError } from '../../lib/errors.js';
import { voucherCodeOfAsset } from '../vouchers/index.js';

export type AssetKind = 'qr' | 'barcode';

/** Printable ASCII: what Code 128 can carry without falling back to control characters. */
const CODE_128 = /^[\x20-\x7e]+$/;

/**
 * GET /v1/assets/{qr|barcode}/{id}: a PNG of the voucher's code, drawn by well-kept libraries
 * (qrcode: a QR code with medium error correction; bwip-js: Code 128 with the code printed
 * under the bars). The image depends on the code alone, so clients may cache it.
 */
export async function renderAsset(deps: Pick<Deps, 'db'>, kind: AssetKind, assetId: string): Promise<Buffer> {
  const code = await voucherCodeOfAsset(deps, assetId);
  if (kind === 'qr') return QRCode.toBuffer(code, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
  if (!CODE_128.test(code))
    throw new AppError(
      'invalid_voucher',
      'A Code 128 barcode carries printable ASCII only; use the QR code for this voucher',
    );
  try {
    return await bwipjs.toBuffer({
      bcid: 'code128',
      text: code,
      scale: 3,
      height: 12,
      includetext: true,
      textxalign: 'center',
    });
  } catch (error) {
    throw new AppError('invalid_voucher', `This code cannot be drawn as a Code 128 barcode: ${String(error)}`);
  }
}
