import { MAX_RATE_LIMIT } from '../../app/config.js';
import { flagsSchema, integer } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { createKey, listKeys, revokeKey, type KeyView } from '../../modules/auth/index.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';
import { textTable } from '../table.js';

interface CreateOptions extends CommonOptions {
  client?: boolean;
  name?: string;
  origins?: string;
  rateLimit?: string;
}

const createFlags = flagsSchema({ rateLimit: integer(1, MAX_RATE_LIMIT) });

/** `promo keys list` as a table. */
const keysTable = (keys: KeyView[]): string =>
  textTable(
    ['APP ID', 'KIND', 'STATE', 'ORIGINS', 'PER MINUTE', 'CREATED', 'NAME'],
    keys.map((k) => [
      k.app_id,
      k.kind,
      k.revoked_at ? 'revoked' : 'active',
      k.origins.join(','),
      k.rate_limit === null ? 'default' : String(k.rate_limit),
      k.created_at,
      k.name,
    ]),
  );

export const createKeyCommand = (options: CreateOptions) =>
  runWithDeps(options, async (deps) => {
    const { rateLimit } = parse(createFlags, { rateLimit: options.rateLimit }, 'flags');
    const key = await createKey(deps, {
      kind: options.client ? 'client' : 'server',
      name: options.name,
      origins: options.origins?.split(','),
      rateLimit,
    });
    if (options.json) return printJson(key);
    const [idHeader, tokenHeader] =
      key.kind === 'client' ? ['X-Client-Application-Id', 'X-Client-Token'] : ['X-App-Id', 'X-App-Token'];
    process.stdout.write(`${idHeader}: ${key.app_id}\n${tokenHeader}: ${key.app_token}\n`);
    process.stderr.write('The token is shown only now; store it safely.\n');
  });

export const listKeysCommand = (options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    const keys = await listKeys(deps);
    if (options.json) return printJson(keys);
    process.stdout.write(`${keysTable(keys)}\n`);
  });

export const revokeKeyCommand = (appId: string, options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    const key = await revokeKey(deps, appId);
    if (options.json) return printJson(key);
    process.stdout.write(`revoked ${key.app_id}\n`);
  });
