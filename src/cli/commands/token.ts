import { AppError } from '../../lib/errors.js';
import { listKeys, tokenRequestSchema, issueToken } from '../../modules/auth/index.js';
import { parse } from '../../lib/validate.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

interface TokenOptions extends CommonOptions {
  scope: string;
  appId?: string;
}

export const tokenCommand = (options: TokenOptions) =>
  runWithDeps(options, async (deps) => {
    const active = (await listKeys(deps)).filter((k) => k.kind === 'server' && k.revoked_at === null);
    const key = options.appId ? active.find((k) => k.app_id === options.appId) : active[0];
    if (!key) {
      throw new AppError(
        'invalid_app_id',
        options.appId ? `No active server key with app id ${options.appId}` : 'Create one with: promo keys create',
      );
    }
    const request = parse(tokenRequestSchema, { grant_type: 'client_credentials', scope: options.scope }, 'form');
    const token = await issueToken(deps, key.app_id, request);
    if (options.json) return printJson(token);
    process.stdout.write(`${token.access_token}\n`);
  });
