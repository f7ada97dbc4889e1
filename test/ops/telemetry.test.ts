import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import parsePrometheus from 'parse-prometheus-text-format';
import { runCli, spawnServe } from '../support/cli.js';
import { freshDatabase, onPostgres } from '../support/engine.js';
import { discountCampaign } from '../support/factories.js';
import { testRunner, waitForJob } from '../support/jobs.js';
import { startTestServer, type LogLine, type TestServer } from '../support/server.js';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }>;
}

const scrape = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${url}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

const family = (families: Family[], name: string): Family => {
  const found = families.find((f) => f.name === name);
  assert.ok(found, `no ${name} in /metrics`);
  return found;
};

const valueOf = (f: Family, labels: Record<string, string>): number | undefined => {
  const metric = f.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return metric?.value === undefined ? undefined : Number(metric.value);
};

/** SQLite's database figures: its file and WAL, and the one writer's commits. */
function assertSqliteFigures(families: Family[]): void {
  assert.ok((valueOf(family(families, 'promo_database_bytes'), { file: 'database' }) ?? 0) > 0);
  assert.notEqual(valueOf(family(families, 'promo_database_bytes'), { file: 'wal' }), undefined);
  // The campaign's creation was a write: its batch, and the writer's time in it and in COMMIT.
  assert.ok((valueOf(family(families, 'promo_commit_batches_total'), {}) ?? 0) >= 1);
  assert.ok((valueOf(family(families, 'promo_commit_transactions_total'), {}) ?? 0) >= 1);
  assert.ok((valueOf(family(families, 'promo_commit_seconds_total'), {}) ?? 0) > 0);
  assert.ok((valueOf(family(families, 'promo_transaction_seconds_total'), {}) ?? 0) > 0);
  assert.equal(
    families.find((f) => f.name === 'promo_database_pool_connections'),
    undefined,
  );
}

/**
 * PostgreSQL's: no file of promo's (no bytes) and commits the server groups itself (the commit
 * figures stay zero); instead the pool, with nobody waiting for a connection, and the
 * transactions re-run after losing a race (none lost every attempt).
 */
function assertPostgresFigures(families: Family[]): void {
  assert.deepEqual(family(families, 'promo_database_bytes').metrics, []);
  for (const name of ['promo_commit_batches_total', 'promo_commit_transactions_total', 'promo_commit_seconds_total'])
    assert.equal(valueOf(family(families, name), {}), 0, name);
  const pool = family(families, 'promo_database_pool_connections');
  const open = valueOf(pool, { state: 'open' }) ?? 0;
  assert.ok(open >= 1, `open connections: ${open}`);
  const idle = valueOf(pool, { state: 'idle' }) ?? -1;
  assert.ok(idle >= 0 && idle <= open, `idle connections: ${idle} of ${open}`);
  assert.equal(valueOf(family(families, 'promo_database_pool_waiting'), {}), 0);
  assert.ok((valueOf(family(families, 'promo_transaction_retries_total'), {}) ?? -1) >= 0);
  assert.equal(valueOf(family(families, 'promo_transaction_retries_exhausted_total'), {}), 0);
}

/** Enqueues a generation of `count` vouchers into a new campaign; returns the job's id. */
async function generate(server: TestServer, name: string, count: number): Promise<string> {
  assert.equal((await server.request('POST', '/v1/campaigns', { body: discountCampaign(name) })).status, 200);
  const res = await server.request('POST', `/v1/campaigns/${name}/vouchers?vouchers_count=${count}`, { body: {} });
  assert.equal(res.status, 202);
  return res.body.async_action_id as string;
}

describe('the request log', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const lineOf = (requestId: string): LogLine => {
    const lines = server.logLines.filter((line) => line.req_id === requestId);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    return lines[0] as LogLine;
  };

  it('writes one JSON line per request: id, method, route pattern, status, duration and the key, never a secret', async () => {
    const res = await server.request('GET', '/v1/customers/cust_unknown?limit=5');
    assert.equal(res.status, 404);
    const requestId = res.headers.get('x-request-id') as string;
    const { time, ms, pid, ...line } = lineOf(requestId);
    assert.deepEqual(line, {
      level: 'info',
      msg: 'request',
      req_id: requestId,
      method: 'GET',
      route: '/v1/customers/:ref',
      status: 404,
      app_id: server.serverKey.app_id,
      error: 'not_found',
    });
    assert.ok(
      !Number.isNaN(Date.parse(time)) && typeof ms === 'number' && ms >= 0 && pid === process.pid,
      JSON.stringify({ time, ms, pid }),
    );

    const token = (
      await server.request('POST', '/v1/oauth/token', {
        raw: 'grant_type=client_credentials&scope=api',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
    ).body.access_token as string;
    const bearer = await server.request('GET', '/v1/customers', { auth: { bearer: token } });
    assert.equal(bearer.status, 200);
    assert.equal(lineOf(bearer.headers.get('x-request-id') as string).app_id, server.serverKey.app_id);
    const client = await server.request('POST', '/client/v1/nothing-here', { auth: 'client', body: {} });
    assert.deepEqual(
      [
        lineOf(client.headers.get('x-request-id') as string).route,
        lineOf(client.headers.get('x-request-id') as string).app_id,
      ],
      [null, server.clientKey.app_id],
    );

    const everything = JSON.stringify(server.logLines);
    for (const secret of [server.serverKey.app_token, server.clientKey.app_token, token])
      assert.ok(!everything.includes(secret), 'a secret reached the log');
  });

  it("says why a request was refused: the answer's error key, and none on a success", async () => {
    const answers = [
      await server.request('POST', '/v1/customers', { auth: 'none', body: {} }),
      await server.request('POST', '/v1/customers', {
        raw: '{"name": ',
        headers: { 'Content-Type': 'application/json' },
      }),
      await server.request('DELETE', '/health', { auth: 'none' }),
      await server.request('GET', '/health', { auth: 'none' }),
    ];
    const lines = answers.map((res) => {
      const {
        time: _time,
        ms: _ms,
        pid: _pid,
        req_id: reqId,
        ...line
      } = lineOf(res.headers.get('x-request-id') as string);
      assert.equal(reqId, res.headers.get('x-request-id'));
      return line;
    });
    assert.deepEqual(lines, [
      { level: 'info', msg: 'request', method: 'POST', route: null, status: 401, error: 'unauthorized' },
      {
        level: 'info',
        msg: 'request',
        method: 'POST',
        route: null,
        status: 400,
        app_id: server.serverKey.app_id,
        error: 'invalid_payload',
      },
      { level: 'info', msg: 'request', method: 'DELETE', route: null, status: 405, error: 'method_not_allowed' },
      { level: 'info', msg: 'request', method: 'GET', route: '/health', status: 200 },
    ]);
  });

  it('logs a job as it starts and ends', async () => {
    const jobId = await generate(server, 'Logged', 30);
    const runner = testRunner(server.deps, { only: [jobId] });
    try {
      await waitForJob(server, jobId);
    } finally {
      await runner.stop();
    }
    const lines = server.logLines.filter((line) => line.job_id === jobId);
    assert.deepEqual(
      lines.filter((line) => line.level === 'info').map((line) => [line.msg, line.type, line.state]),
      [
        ['job started', 'CAMPAIGN.VOUCHERS_GENERATE', undefined],
        ['job ended', 'CAMPAIGN.VOUCHERS_GENERATE', 'finished'],
      ],
    );
    assert.ok(
      lines.some((line) => line.level === 'debug' && line.msg === 'job portion' && line.items === 30),
      JSON.stringify(lines),
    );
  });
});

describe('GET /metrics', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers Prometheus text: requests by route pattern and status, latency, jobs, database and process figures', async () => {
    await server.request('GET', '/v1/customers/cust_a');
    await server.request('GET', '/v1/customers/cust_b');
    const jobId = await generate(server, 'Counted', 12);
    const runner = testRunner(server.deps, { only: [jobId] });
    try {
      await waitForJob(server, jobId);
    } finally {
      await runner.stop();
    }
    const res = await scrape(server.url);
    assert.equal(res.status, 200);
    assert.equal(res.type, 'text/plain; version=0.0.4; charset=utf-8');
    const families = parsePrometheus(res.text) as Family[];
    const labels = { method: 'GET', route: '/v1/customers/:ref', status: '404' };
    assert.equal(valueOf(family(families, 'promo_http_requests_total'), labels), 2);
    const latency = family(families, 'promo_http_request_duration_seconds');
    assert.equal(latency.type, 'HISTOGRAM');
    assert.ok(
      latency.metrics.length > 0 && latency.metrics.every((m) => m.buckets?.['+Inf'] !== undefined),
      JSON.stringify(latency),
    );
    // The parser folds labelled histograms together, so the per-route count is read from its line.
    assert.ok(
      res.text.includes(
        'promo_http_request_duration_seconds_count{method="GET",route="/v1/customers/:ref",status="404"} 2\n',
      ),
      res.text,
    );
    const job = { type: 'CAMPAIGN.VOUCHERS_GENERATE', status: 'DONE' };
    assert.equal(valueOf(family(families, 'promo_jobs'), job), 1);
    assert.equal(valueOf(family(families, 'promo_job_items_done'), job), 12);
    assert.equal(valueOf(family(families, 'promo_job_items_failed'), job), 0);
    assert.ok((valueOf(family(families, 'process_resident_memory_bytes'), {}) ?? 0) > 0);
    if (onPostgres()) assertPostgresFigures(families);
    else assertSqliteFigures(families);
  });
});

describe('promo serve logs and metrics', () => {
  const KEY = { PROMO_APP_ID: 'ops-app', PROMO_APP_TOKEN: 'ops-token' };
  const headers = { 'X-App-Id': KEY.PROMO_APP_ID, 'X-App-Token': KEY.PROMO_APP_TOKEN };

  it('writes JSON lines on stderr; --log-level warn leaves requests out', async () => {
    const file = await freshDatabase();
    const server = await spawnServe(['--db', file], KEY);
    const res = await fetch(`${server.url}/v1/customers/nobody`, { headers });
    const requestId = res.headers.get('x-request-id');
    await server.stop();
    const lines = server
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine);
    const line = lines.find((l) => l.msg === 'request');
    assert.deepEqual(
      { ...line, time: undefined, ms: undefined, pid: undefined },
      {
        level: 'info',
        msg: 'request',
        req_id: requestId,
        method: 'GET',
        route: '/v1/customers/:ref',
        status: 404,
        app_id: 'ops-app',
        error: 'not_found',
        time: undefined,
        ms: undefined,
        pid: undefined,
      },
    );

    const quiet = await spawnServe(['--db', file, '--log-level', 'warn'], KEY);
    await fetch(`${quiet.url}/v1/customers/nobody`, { headers });
    await quiet.stop();
    assert.equal(quiet.stderr(), '');
  });

  it('logs its shutdown on SIGTERM and SIGINT: when it stops listening, and once the database is closed', async () => {
    const file = await freshDatabase();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = await spawnServe(['--db', file], KEY);
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
      assert.equal(await server.stop(signal), 0);
      const lines = server
        .stderr()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as LogLine);
      const ends = lines
        .filter((l) => l.msg !== 'request')
        .map(({ time: _time, pid, ...line }) => ({ ...line, pid: pid === server.child.pid }));
      assert.deepEqual(ends, [
        {
          level: 'info',
          msg: 'stopping: no longer listening, finishing requests in flight',
          signal,
          grace_ms: 10_000,
          pid: true,
        },
        { level: 'info', msg: 'stopped: database closed', signal, pid: true },
      ]);
      await assert.rejects(fetch(`${server.url}/health`), 'nothing listens any more');
    }
  });

  it('refuses a log level it does not know', async () => {
    const res = await runCli(['serve', '--db', await freshDatabase(), '--log-level', 'loud']);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, 'error: Invalid log level: loud (fatal, error, warn, info, debug, trace, silent)\n');
  });

  it('opens /metrics to loopback only, or to the bearer of PROMO_METRICS_TOKEN', async (t) => {
    const file = await freshDatabase();
    const open = await spawnServe(['--db', file, '--host', '0.0.0.0'], KEY);
    try {
      const port = new URL(open.url).port;
      assert.equal((await scrape(`http://127.0.0.1:${port}`)).status, 200);
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (!outside) t.diagnostic('no non-loopback interface: the remote refusal is not checked here');
      else {
        const res = await scrape(`http://${outside.address}:${port}`);
        assert.equal(res.status, 403);
        const { request_id: _id, ...body } = JSON.parse(res.text) as Record<string, unknown>;
        assert.deepEqual(body, {
          code: 403,
          key: 'forbidden',
          message: 'Forbidden',
          details: '/metrics answers only this machine; set PROMO_METRICS_TOKEN to read it from elsewhere',
        });
      }
    } finally {
      await open.stop();
    }
    const guarded = await spawnServe(['--db', file], { ...KEY, PROMO_METRICS_TOKEN: 'scrape-secret' });
    try {
      const refused = await scrape(guarded.url);
      assert.equal(refused.status, 401);
      const { request_id: _id, ...body } = JSON.parse(refused.text) as Record<string, unknown>;
      assert.deepEqual(body, {
        code: 401,
        key: 'unauthorized',
        message: 'Unauthorized',
        details: 'Send Authorization: Bearer <PROMO_METRICS_TOKEN>',
      });
      assert.equal((await scrape(guarded.url, { Authorization: 'Bearer wrong' })).status, 401);
      assert.equal((await scrape(guarded.url, { Authorization: 'Bearer scrape-secret' })).status, 200);
    } finally {
      await guarded.stop();
    }
  });
});
