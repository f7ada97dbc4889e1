// The baseline: a bare Koa app with one route, the least any Koa endpoint can cost.
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  if (ctx.path === '/health') ctx.body = { status: 'ok' };
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
