import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../../api/test/support/api-test-app';

/**
 * OpenTelemetry export: a loopback OTLP/HTTP receiver is the collector. The API and the export worker run as
 * real processes (their builds) with OTEL_EXPORTER_OTLP_ENDPOINT set and send their spans there (the in-process
 * test app only creates the user and token they share through Postgres and Redis): the request's server span and the job's span share the trace id the client sent, the
 * request's parent is the client's span, and the job's parent is the request's span.
 */
const entryOf = (service: string) => join(__dirname, `../../../${service}/dist/main.js`);
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}
interface Received {
  service: string;
  span: OtlpSpan;
}

function spansOf(body: string): Received[] {
  const payload = JSON.parse(body) as {
    resourceSpans: {
      resource: { attributes: { key: string; value: { stringValue?: string } }[] };
      scopeSpans: { spans: OtlpSpan[] }[];
    }[];
  };
  return payload.resourceSpans.flatMap((resourceSpans) => {
    const service = resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value
      .stringValue;
    return resourceSpans.scopeSpans.flatMap((scope) =>
      scope.spans.map((span) => ({ service: String(service), span })),
    );
  });
}

describe('OpenTelemetry span export (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let storageDir: string;
  let receiver: Server;
  let endpoint: string;
  const received: Received[] = [];
  const paths: string[] = [];
  let api: ApiTestApp;
  let apiProcess: ChildProcess;
  let worker: ChildProcess;
  let output = '';

  function spawnService(service: string, env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [entryOf(service)], {
      env: { ...process.env, ...env, LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
      stdio: 'pipe',
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    return child;
  }

  async function stop(child: ChildProcess): Promise<number | null> {
    if (child.exitCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    return exited;
  }

  const lines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 25_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline || worker?.exitCode || apiProcess?.exitCode)
        throw new Error(`no ${what}:\n${output}\n${JSON.stringify(received)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        received.push(...spansOf(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    storageDir = await mkdtemp(join(tmpdir(), 'pfs-otlp-'));
    const env = {
      REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}otlp-${Math.random().toString(36).slice(2, 8)}:`,
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: storageDir,
      EXPORT_LINK_SECRET: 'otlp-test-export-link-secret',
    };
    api = await startApiTestApp(env);
    apiProcess = spawnService('api', { ...env, API_PORT: '0' });
    worker = spawnService('worker', { ...env, WORKER_PORT: '0' });
    await waitFor(() => lines().find((line) => line.msg === 'worker running'), 'worker running line');
  }, 60_000);

  afterAll(async () => {
    await Promise.all([stop(worker), stop(apiProcess)]);
    await api.close();
    await new Promise((resolve) => receiver.close(resolve));
    await rm(storageDir, { recursive: true, force: true });
  });

  it('when POST /exports carries a traceparent, then the request span and the job span reach the collector in that trace, parent to child', async () => {
    const user = await createTestUser(api.deps, 'user:rw entries:rw budgets:r');
    const apiUrl = String(
      (await waitFor(() => lines().find((line) => line.msg === 'api listening'), 'api listening line')).url,
    );
    const answer = await fetch(`${apiUrl}/exports`, {
      method: 'POST',
      headers: {
        authorization: user.auth,
        traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ type: 'export', resources: ['expenses'], formats: ['csv'] }),
    });
    expect(answer.status).toBe(201);
    const exportId = String(answer.headers.get('location')).split('/').pop();
    const finished = await waitFor(
      () => lines().find((line) => line.exportId === exportId && line.msg === 'export job finished'),
      'finished export',
    );
    // SIGTERM flushes each service's batch in its close path (the batch delay alone is 5 s).
    expect(await stop(apiProcess)).toBe(0);
    expect(await stop(worker)).toBe(0);

    const requestSpan = await waitFor(
      () => received.find((r) => r.service === 'api' && r.span.traceId === TRACE_ID),
      'API span',
    );
    expect(requestSpan.span).toMatchObject({ name: 'POST /exports', parentSpanId: CLIENT_SPAN, kind: 2 });
    const jobSpan = await waitFor(
      () => received.find((r) => r.service === 'worker' && r.span.traceId === TRACE_ID),
      'worker span',
    );
    expect(jobSpan.span).toMatchObject({ parentSpanId: requestSpan.span.spanId, kind: 5 });
    // The worker's log lines carry the exported trace id: logs and traces agree.
    expect(finished.traceId).toBe(TRACE_ID);
    expect(paths.every((line) => line.startsWith('POST /v1/traces application/json'))).toBe(true);
  });

  it('when OTEL_EXPORTER_OTLP_ENDPOINT is unset, then the request and job code paths load no OpenTelemetry SDK', () => {
    const script = `require(${JSON.stringify(join(__dirname, '../../../api/dist/app'))});
      require(${JSON.stringify(join(__dirname, '../../dist/processors/export-resources.processor'))});
      console.log(JSON.stringify(Object.keys(require.cache)));`;
    const loaded = JSON.parse(
      spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout,
    ) as string[];
    expect(loaded.some((path) => path.includes('trace.middleware'))).toBe(true);
    expect(loaded.filter((path) => /sdk-trace|exporter-trace-otlp|otlp-exporter-base/.test(path))).toEqual(
      [],
    );
  });
});
