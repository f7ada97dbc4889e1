import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { dbOption, jsonOption } from './command-options.js';
import { EXIT_OK, EXIT_USAGE } from './run.js';
import { webhooksCommands } from './webhooks.commands.js';

// A reader that stopped reading (`promo export order | head -1`) is a normal end for a Unix
// tool: stop quietly with 0. Anything already committed stays; a transaction in flight is
// rolled back by SQLite, and a job this process ran is taken over when its lease runs out.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT_OK);
  throw error;
});

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * The promo program. Each command's module is imported only when it runs, so `promo --help`
 * does not load Koa, Kysely or Ink.
 */
const program = new Command()
  .name('promo')
  .description('On-prem promotion engine speaking the Voucherify v2018-08-01 API')
  .version(version, '-V, --version', 'print the version of promo')
  .showHelpAfterError()
  .exitOverride();

program
  .command('serve')
  .description('run the HTTP API')
  .addOption(dbOption())
  .option('--host <host>', 'address to listen on (env PROMO_HOST, default 127.0.0.1)')
  .option('--port <port>', 'port; 0 picks a free one (env PROMO_PORT, default 8080)')
  .option('--workers <n>', 'worker threads for bulk jobs (env PROMO_WORKERS, default 2)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env PROMO_LOG_LEVEL, default info)')
  .action(async (options) => (await import('./commands/serve.js')).serve(options));

program
  .command('migrate')
  .description('apply pending database migrations')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/migrate.js')).migrateCommand(options));

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create a server key (or a client key with --client); prints its secret once')
  .option('--client', 'a client-side key for /client/v1')
  .option('--name <name>', 'a label for the key')
  .option('--origins <list>', 'client keys: comma-separated allowed origins (default *)')
  .option('--rate-limit <n>', 'requests per minute for this key (default: PROMO_RATE_LIMIT, else unlimited)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/keys.js')).createKeyCommand(options));
keys
  .command('list')
  .description('list keys (never their secrets)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/keys.js')).listKeysCommand(options));
keys
  .command('revoke')
  .description('revoke a key; its OAuth tokens stop working at once')
  .argument('<appId>', 'the key to revoke')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (appId, options) => (await import('./commands/keys.js')).revokeKeyCommand(appId, options));

program
  .command('token')
  .description('issue an OAuth access token, as POST /v1/oauth/token would')
  .option('--scope <scopes>', 'space-separated scopes', 'api')
  .option('--app-id <appId>', 'the server key the token acts for (default: the oldest active one)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/token.js')).tokenCommand(options));

program
  .command('generate')
  .description('add vouchers to a campaign, as POST /v1/campaigns/{id}/vouchers does (a job beyond one, run here)')
  .argument('<campaign>', 'campaign id or name')
  .requiredOption('--count <n>', 'how many vouchers')
  .option('--length <n>', 'random characters per code (default 8)')
  .option('--charset <chars>', 'characters to draw from (default 0-9A-Za-z)')
  .option('--prefix <text>', 'text before each code')
  .option('--postfix <text>', 'text after each code')
  .option('--pattern <pattern>', 'code pattern; each # is a random character (overrides --length)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (campaign, options) => (await import('./commands/generate.js')).generateCommand(campaign, options));

program
  .command('import')
  .description('import a file of items (streamed), as the import endpoints do; exits 1 if any item failed')
  .argument(
    '[file]',
    'a JSON array file, NDJSON (.ndjson/.jsonl or --format ndjson) or CSV (.csv or --format csv); - reads stdin',
  )
  .option(
    '--type <type>',
    'orders, vouchers, customers, products or skus (CSV: customers, products, skus, vouchers)',
    'orders',
  )
  .option(
    '--campaign <campaign>',
    'vouchers: the campaign id or name to import into (a CSV without it: standalone vouchers)',
  )
  .option(
    '--format <format>',
    'json (an array), ndjson (one item per line) or csv (a header line, then rows); default from the file name',
  )
  .option('--dry-run', 'orders: check every order as the import would, report what would fail, write nothing')
  .option('--resume <jobId>', 'finish an interrupted import job (instead of a file)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (file, options) => (await import('./commands/import.js')).importCommand(file, options));

program
  .command('export')
  .description('export vouchers, customers, orders... to CSV, as POST /v1/exports does (its job run here)')
  .argument('<type>', 'voucher, redemption, customer, order, points_expiration or voucher_transactions')
  .option('--fields <a,b>', "the CSV columns (default: the reference's defaults for the type)")
  .option('--order <field>', 'the row order, e.g. -created_at (default: the order of insertion)')
  .option('--filters <json>', 'parameters.filters of POST /v1/exports, as JSON')
  .option('--out <file>', 'write the CSV to this file (default: stdout)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (type, options) => (await import('./commands/export.js')).exportCommand(type, options));

program
  .command('balance')
  .description(
    "add or remove a loyalty card's points (a gift card's credits), as POST /v1/loyalties/members/{code}/balance does",
  )
  .argument('<card>', 'the card code')
  .argument('<change>', 'points to add (+100) or remove (-30)')
  .option('--reason <text>', 'why (kept on the transaction)')
  .option('--source-id <id>', 'your transaction id: a repeated one changes nothing and prints the first result')
  .option('--expires <date|never>', 'when added points expire (default: the program rules)')
  .option('--campaign <campaign>', 'the program (id or name) the card must belong to')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (card, change, options) =>
    (await import('./commands/balance.js')).balanceCommand(card, change, options),
  );

// One subcommand per file under commands/loyalty-*.ts; this group is only their table.
const loyalty = program.command('loyalty').description('loyalty programs: members and card transactions');
loyalty
  .command('transactions')
  .description("a card's ledger, newest first, one page (--json: the API's list)")
  .argument('<card>', 'the card code')
  .option('--limit <n>', 'rows per page, 1 to 100 (default 10)')
  .option('--starting-after-id <id>', 'the page after this transaction')
  .option('--campaign <campaign>', 'the program (id or name) the card must belong to')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (card, options) =>
    (await import('./commands/loyalty-transactions.js')).loyaltyTransactionsCommand(card, options),
  );

const jobs = program
  .command('jobs')
  .description('watch async actions live (arrows select, enter shows the result, c cancels, q or esc quits)')
  .option('--once', 'print one frame and exit (also when stdin is not a terminal)')
  .option('--limit <n>', 'how many of the newest jobs (default 20)')
  .option('--failures <id>', "print every failure of one job (--json: the failures URL's NDJSON)")
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/jobs.js')).jobsCommand(options));
jobs
  .command('cancel')
  .description('cancel an open job; a server running it stops at its next portion')
  .argument('<id>', 'the async action id')
  .addOption(dbOption())
  .addOption(jsonOption())
  // `jobs` takes --db and --json too, and commander gives them to it wherever they stand.
  .action(async (id, _options, command: Command) =>
    (await import('./commands/jobs.js')).cancelJobCommand(id, command.optsWithGlobals()),
  );

loyalty
  .command('members')
  .description("list a loyalty program's members (newest first), as GET /v1/loyalties/{id}/members")
  .argument('<program>', 'program id or name')
  .option('--limit <n>', 'how many of the newest members, 1 to 100 (default 20)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (name, options) =>
    (await import('./commands/loyalty-members.js')).loyaltyMembersCommand(name, options),
  );

webhooksCommands(program);

// One file (commands/stacking-rules.ts); `promo stacking-rules` alone shows them.
const stackingRules = program
  .command('stacking-rules')
  .description("the project's stacking rules, as GET/PUT /v1/stacking-rules");
stackingRules
  .command('show', { isDefault: true })
  .description('print the rules in force (the defaults until set)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/stacking-rules.js')).showStackingRulesCommand(options));
stackingRules
  .command('set')
  .description('change the rules given, keep the others; prints the whole rules')
  .option('--redeemables-limit <n>', 'redeemables one request may name, 1 to 30')
  .option('--applicable-limit <n>', 'redeemables applied per request, 1 to 30')
  .option('--applicable-per-category-limit <n>', 'applied per category, 1 to 30')
  .option('--exclusive-limit <n>', 'exclusive redeemables applied per request, 1 to 5')
  .option('--exclusive-per-category-limit <n>', 'exclusive ones applied per category, 1 to 5')
  .option('--exclusive-categories <ids>', 'comma-separated category ids ("" clears)')
  .option('--joint-categories <ids>', 'comma-separated category ids ("" clears)')
  .option('--mode <mode>', 'redeemables_application_mode: ALL or PARTIAL')
  .option('--sorting <rule>', 'redeemables_sorting_rule: CATEGORY_HIERARCHY or REQUESTED_ORDER')
  .option('--products-mode <mode>', 'redeemables_products_application_mode: STACK or ONCE')
  // Not --no-effect...: commander reads a --no- prefix as a negated boolean.
  .option('--if-no-effect <rule>', 'redeemables_no_effect_rule: REDEEM_ANYWAY or SKIP')
  .option('--skip-if-no-effect <ids>', 'no_effect_skip_categories: comma-separated category ids ("" clears)')
  .option('--redeem-if-no-effect <ids>', 'no_effect_redeem_anyway_categories: comma-separated category ids ("" clears)')
  .option('--rollback-mode <mode>', 'redeemables_rollback_order_mode: WITH_ORDER or WITHOUT_ORDER')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/stacking-rules.js')).setStackingRulesCommand(options));

program
  .command('copy')
  .description('copy a whole SQLite database into an empty PostgreSQL one (streamed, then verified table by table)')
  .requiredOption('--from <file>', "the SQLite database file (at this promo's newest schema: promo migrate it first)")
  .requiredOption('--to <url>', 'postgres://… of an empty database with C collation')
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/copy.js')).copyCommand(options));

program
  .command('vacuum')
  .description('give free space back to the disk in short steps, safe beside a running server')
  .option('--full', 'rewrite the whole file once (databases made before online vacuum; stop the server first)')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (options) => (await import('./commands/vacuum.js')).vacuumCommand(options));

program
  .command('backup')
  .description('copy the database to a new file while the server runs (consistent, integrity-checked)')
  .argument('<file>', 'the backup file to write; must not exist')
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (file, options) => (await import('./commands/backup.js')).backupCommand(file, options));

program
  .command('restore')
  .description('put a backup in place of the database (stop the server first; the old file is kept)')
  .argument('<file>', 'a file written by promo backup')
  .option(
    '--keep-keys',
    'leave active the keys the replaced database had revoked (or did not have); by default they are revoked again',
  )
  .addOption(dbOption())
  .addOption(jsonOption())
  .action(async (file, options) => (await import('./commands/backup.js')).restoreCommand(file, options));

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // --help and --version exit 0; everything else commander refuses (including a missing
  // subcommand, for which it prints help to stderr) is a usage error.
  process.exitCode = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
}
