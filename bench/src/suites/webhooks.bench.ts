import { accessTokenKey, generateToken, hashToken } from '@pfs/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES_FOR_BENCH, type BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { defaultSeconds } from '../measure';
import { type BenchReceiver, startBenchReceiver } from '../servers/webhook-receiver';
import { cpuMillisOf, startServiceProcess, type ServiceProcess } from '../service-process';

const repoRoot = join(__dirname, '../../..');
/** Entries written per second during the steady phase, and entries of the burst (batches of 500). */
const STEADY_RATE = 20;
const WRITERS = 4;
const BURST = { full: 1_000, quick: 100 };
const BATCH = 500;
/** The shipped relay interval (WEBHOOK_RELAY_INTERVAL_MS's default) and a short one (the pipeline's own lag). */
const RELAY_INTERVALS = { full: [1_000, 100], quick: [100] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * A new user who let a bench OAuth application in (a client and a live grant: a webhook is delivered only
 * while its application holds one), and that application's access token.
 */
async function connectedUser(context: BenchContext): Promise<string> {
  const clientId = `bench-webhooks-${generateToken().slice(0, 12)}`;
  const { rows } = await context.pg.query(`INSERT INTO users (email) VALUES ($1) RETURNING id::text AS id`, [
    `${clientId}@example.test`,
  ]);
  const userId = rows[0].id as string;
  await context.pg.query(
    `INSERT INTO oauth_clients (id, name, secret_hash, redirect_uri, scope, grants)
     VALUES ($1, 'Bench webhooks', 'unused', 'https://bench.example.test/cb', $2, '{authorization_code}')`,
    [clientId, ALL_SCOPES_FOR_BENCH],
  );
  await context.pg.query(`INSERT INTO oauth_grants (user_id, client_id, scope) VALUES ($1, $2, $3)`, [
    userId,
    clientId,
    ALL_SCOPES_FOR_BENCH,
  ]);
  const token = generateToken();
  const record = { sub: userId, scope: ALL_SCOPES_FOR_BENCH, kind: 'access', client_id: clientId };
  const exp = Math.floor(Date.now() / 1000) + 86_400;
  await context.redis.set(accessTokenKey(hashToken(token)), JSON.stringify({ ...record, exp }), 'EX', 86_400);
  return `Bearer ${token}`;
}

/** A JSON call to the suite's API; throws unless it answers `expected`. */
async function call(api: ServiceProcess, auth: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
  return answer.status === 204 ? undefined : answer.json();
}

/** Waits until the receiver has every one of `ids` (entry.created): at most a minute, or 5 events/s. */
async function arrivalsOf(receiver: BenchReceiver, ids: Set<string>): Promise<Map<string, number>> {
  const deadline = Date.now() + Math.max(60_000, ids.size * 200);
  for (;;) {
    const seen = new Map<string, number>();
    for (const arrival of receiver.arrivals.values()) {
      if (arrival.type === 'entry.created' && ids.has(arrival.objectId))
        seen.set(arrival.objectId, arrival.at);
    }
    if (seen.size === ids.size) return seen;
    if (Date.now() > deadline) throw new Error(`only ${seen.size} of ${ids.size} webhook messages arrived`);
    await sleep(20);
  }
}

/**
 * One relay interval: writes entries one by one at STEADY_RATE a second (each on its schedule, at most
 * WRITERS at once) and notes the outbox lag of each, from the write's commit (its
 * 201, which follows the commit) to the receiver's verified arrival: p50 and p99. Then a burst of batches
 * (the outbox fills at once) and the delivered events/s until the last one arrived.
 */
async function runInterval(context: BenchContext, caFile: string, receiver: BenchReceiver, interval: number) {
  const env = {
    ...context.env,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_RELAY_INTERVAL_MS: String(interval),
    REPEAT_MATERIALIZE_INTERVAL_SECONDS: '0',
  };
  const api = await startServiceProcess(join(repoRoot, 'services/api/dist/main.js'), {
    ...env,
    API_PORT: '0',
  });
  // BENCH_CPU_PROF=<dir>: the worker writes a V8 CPU profile there too when it stops.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  // BENCH_WORKER_ENTRY: another build of the worker (a copy of its dist/ inside it), for an A/B of a change.
  // A worker that does not start must not leave the API behind.
  const worker = await startServiceProcess(
    process.env.BENCH_WORKER_ENTRY ?? join(repoRoot, 'services/worker/dist/main.js'),
    { ...env, WORKER_PORT: '0', WEBHOOK_CA_FILE: caFile },
    undefined,
    profile,
  ).catch(async (error: unknown) => {
    await api.stop();
    throw error;
  });
  try {
    const auth = await connectedUser(context);
    const post = (path: string, body: unknown) => call(api, auth, 'POST', path, body);
    const account = (
      (await post('/accounts', { name: 'Hooked', currency: { code: 'EUR' } })) as { id: string }
    ).id;
    const category = ((await post('/categories', { name: 'Hooked', type: 'expense' })) as { id: string }).id;
    const hook = (await post('/webhooks', { url: receiver.url, events: ['entry.created'] })) as {
      id: string;
      secret: string;
    };
    receiver.secret = hook.secret;
    const entry = (index: number) => ({
      amount: -(index + 1),
      currency: { code: 'EUR' },
      date: '2025-05-09',
      account,
      category,
      desc: `hook ${index}`,
    });

    const count = Math.max(10, Math.round(STEADY_RATE * Math.max(1, defaultSeconds() * 4)));
    const committed = new Map<string, number>();
    const started = Date.now();
    let next = 0;
    // At most WRITERS writes in flight: each starts on its schedule, or late when the API falls behind
    // (then the achieved rate, noted, is below STEADY_RATE) rather than piling up until the pool refuses.
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        for (let index = next++; index < count; index = next++) {
          await sleep(started + (index * 1000) / STEADY_RATE - Date.now());
          const created = (await post('/entries', entry(index))) as { id: string };
          committed.set(String(created.id), Date.now());
        }
      }),
    );
    const rate = count / ((Date.now() - started) / 1000);
    const steady = await arrivalsOf(receiver, new Set(committed.keys()));
    const lags = [...committed].map(([id, at]) => steady.get(id)! - at).sort((a, b) => a - b);
    const name = `webhooks (relay every ${interval} ms)`;
    context.note(
      `${name}: outbox lag commit → receiver at ${rate.toFixed(0)} writes/s (${count} entries), p50 / p99`,
      `${percentile(lags, 50)} ms / ${percentile(lags, 99)} ms`,
    );

    const burst = context.quick ? BURST.quick : BURST.full;
    const ids = new Set<string>();
    const cpuBefore = [cpuMillisOf(api.child.pid!), cpuMillisOf(worker.child.pid!)];
    const burstStarted = Date.now();
    for (let done = 0; done < burst; done += BATCH) {
      const size = Math.min(BATCH, burst - done);
      const created = (await post(
        '/entries',
        Array.from({ length: size }, (_, index) => entry(count + done + index)),
      )) as Array<{ id: string }>;
      for (const one of created) ids.add(String(one.id));
    }
    const drained = await arrivalsOf(receiver, ids);
    const seconds = (Math.max(...drained.values()) - burstStarted) / 1000;
    const [apiCpu, workerCpu] = [cpuMillisOf(api.child.pid!), cpuMillisOf(worker.child.pid!)].map(
      (after, index) => (after - cpuBefore[index]) / burst,
    );
    context.note(
      `${name}: delivered events/s, a burst of ${burst} entries (batches of ${BATCH}) to the last arrival`,
      `${(burst / seconds).toFixed(0)} events/s (${seconds.toFixed(1)} s)`,
    );
    context.note(
      `${name}: server CPU per delivered event in the burst (API: write + relay; worker: attempt)`,
      `API ${apiCpu.toFixed(1)} ms, worker ${workerCpu.toFixed(1)} ms`,
    );
    if (receiver.refused) throw new Error(`${receiver.refused} webhook messages did not verify`);
    // The bench database is kept between runs: no webhook of this run keeps recording events.
    await call(api, auth, 'DELETE', `/webhooks/${hook.id}`);
  } finally {
    await api.stop();
    await worker.stop();
  }
}

/**
 * Webhooks end to end on the real processes: the API (its relay every 1,000 ms, the default, and every
 * 100 ms; BENCH_QUICK: 100 ms only), the worker (WEBHOOK_CONCURRENCY attempts at a time) and a loopback HTTPS
 * receiver in the bench that verifies every signature. Notes the outbox lag at a steady write load (p50, p99)
 * and the delivered events/s of a burst.
 */
export const webhooksSuite: BenchSuite = {
  name: 'webhooks',
  async run(context) {
    const dir = await mkdtemp(join(tmpdir(), 'pfs-bench-webhooks-'));
    const receiver = await startBenchReceiver();
    try {
      const caFile = join(dir, 'receiver-ca.pem');
      await writeFile(caFile, receiver.certificate);
      for (const interval of context.quick ? RELAY_INTERVALS.quick : RELAY_INTERVALS.full) {
        await runInterval(context, caFile, receiver, interval);
      }
    } finally {
      await receiver.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
