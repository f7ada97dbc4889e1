import { internalActor } from '../../lib/actor.js';
import { parseIsoDate } from '../../lib/dates.js';
import { UsageError } from '../../lib/errors.js';
import { flagsSchema, matching, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { changeBalance, presentBalance } from '../../modules/ledgers/index.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

const isExpiry = (raw: string): raw is string => raw === 'never' || parseIsoDate(raw) !== null;

const balanceFlags = flagsSchema({
  reason: text(),
  sourceId: text(),
  campaign: text(),
  expires: matching(isExpiry, () => 'must be a date (YYYY-MM-DD) or never'),
});

/** `+120`, `120` or `-30`: a non-zero whole number. */
function changeOf(raw: string): number {
  if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) === 0) {
    throw new UsageError(`the change must be a non-zero whole number such as +100 or -30, got ${raw}`);
  }
  return Number(raw);
}

/**
 * `promo balance <card> <+points|-points>`: what the 4.6 endpoint does, in-process, beside a
 * running server (its transaction takes the write lock like any request's). A gift card's
 * change is in credits. Points added expire under the program's rules unless --expires says
 * a date or `never`. Prints the card's new balance; --json the API's answer.
 */
export const balanceCommand = (card: string, change: string, options: CommonOptions & Record<string, unknown>) =>
  runWithDeps(options, async (deps) => {
    const flags = parse(balanceFlags, options, 'flags');
    const amount = changeOf(change);
    const expires = flags.expires;
    const result = await changeBalance(deps, {
      code: card,
      campaign: flags.campaign,
      amount,
      expiration_type: expires === undefined ? undefined : expires === 'never' ? 'NON_EXPIRING' : 'CUSTOM_DATE',
      expiration_date: expires === 'never' ? undefined : expires,
      reason: flags.reason,
      source_id: flags.sourceId,
      source: 'CLI',
      actor: internalActor(),
    });
    if (options.json) return printJson(presentBalance(result.entry, 'points'));
    const unit = result.entry.type.startsWith('POINTS') ? ' points' : '';
    const replayed = result.replayed ? ' (source id seen before: nothing changed)' : '';
    process.stdout.write(
      `${card}: balance ${result.entry.balance}${unit} (${result.entry.delta > 0 ? '+' : ''}${result.entry.delta})${replayed}\n`,
    );
  });
