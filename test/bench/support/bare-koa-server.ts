// The baseline: a bare Koa app, the least any Koa endpoint can cost. `/health` always; given a
// database file, also issue 16's own yardstick for a read: GET /v1/vouchers/{code} as one cached
// better-sqlite3 select of the voucher's row by its unique code, answered as JSON (no keys, no
// presenting, no snapshot: what is left of a read once everything of ours is taken away).
import BetterSqlite3 from 'better-sqlite3';
import Koa from 'koa';

const dbFile = process.argv[2];
const voucherByCode = dbFile
  ? new BetterSqlite3(dbFile, { readonly: true }).prepare('SELECT * FROM vouchers WHERE code = ?')
  : null;
const VOUCHER_PATH = /^\/v1\/vouchers\/([^/]+)$/;

const app = new Koa();
app.use((ctx) => {
  if (ctx.path === '/health') {
    ctx.body = { status: 'ok' };
    return;
  }
  const code = voucherByCode ? VOUCHER_PATH.exec(ctx.path)?.[1] : undefined;
  const row = code === undefined ? undefined : voucherByCode!.get(decodeURIComponent(code));
  if (row) ctx.body = row;
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
