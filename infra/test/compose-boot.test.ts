import { join } from 'node:path';
import S3rver from 's3rver';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import {
  freePort,
  READINESS_PATH,
  ServiceProcess,
  startNodeProcess,
  waitForHealthy,
  waitForOutput,
} from '@pfs/testing';
import { loadCompose, repoRoot } from './support/compose-file';
import { composeTestVars } from './support/compose-vars';
import { chainOf, envOf, execFormOf, readDockerfile } from './support/dockerfile';
import { toLoopbackEnv } from './support/loopback-env';

/**
 * `docker compose up` without Docker: each app service of docker-compose.yml runs from its build output
 * with the Dockerfile target's command, the image's ENV and exactly the environment compose gives it
 * (service hosts mapped to loopback), and must become ready; then the README's CLI steps work.
 */
const { stages } = readDockerfile();
const containerPorts: Record<string, { variable: string; port: number }> = {
  auth: { variable: 'AUTH_PORT', port: 3001 },
  api: { variable: 'API_PORT', port: 3000 },
  worker: { variable: 'WORKER_PORT', port: 3002 },
};

let s3: { port: number; close(): Promise<void> };
const running: ServiceProcess[] = [];

beforeAll(async () => {
  // MinIO's stand-in: an S3 server on loopback with the bucket minio-bucket creates.
  const directory = await mkdtemp(join(tmpdir(), 'pfs-compose-s3-'));
  // The services sign with compose's MinIO credentials; s3rver accepts them (an option its types omit).
  const options: ConstructorParameters<typeof S3rver>[0] & { allowMismatchedSignatures: boolean } = {
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: 'pfs-exports' }],
  };
  const server = new S3rver(options);
  const { port } = await server.run();
  s3 = {
    port,
    close: async () => (await server.close(), await rm(directory, { recursive: true, force: true })),
  };
});

afterAll(async () => {
  for (const service of running) await service.stop();
  await s3?.close();
});

async function containerOf(name: string, vars: Record<string, string>, overrides: Record<string, string>) {
  const service = loadCompose(vars).services[name];
  const chain = chainOf(stages, service.build!.target!);
  const copy = chain.find((i) => i.keyword === 'COPY' && i.args.startsWith('--from=build'))!;
  const packageDir = join(repoRoot, 'services', /\/out\/(\S+)/.exec(copy.args)![1]);
  const [node, ...args] = [...(execFormOf(chain, 'ENTRYPOINT') ?? []), ...(execFormOf(chain, 'CMD') ?? [])];
  expect(node).toBe('node');
  const env = toLoopbackEnv(
    { ...envOf(chain), ...service.environment },
    {
      hosts: {
        postgres: process.env.DATABASE_URL!,
        redis: process.env.REDIS_URL!,
        minio: `http://127.0.0.1:${s3.port}`,
      },
      overrides: { REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}compose:`, ...overrides },
    },
  );
  return { chain, packageDir, args, env };
}

/** The port and path of the image's HEALTHCHECK (the container port), as Docker would poll them. */
function healthcheckOf(chain: { keyword: string; args: string }[]): { port: number; path: string } {
  const check = chain.filter((i) => i.keyword === 'HEALTHCHECK').at(-1)!;
  const [, port, path] = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"]*)/.exec(check.args)!;
  return { port: Number(port), path };
}

async function runCli(
  vars: Record<string, string>,
  cliArgs: string[],
): Promise<{ code: number | null; output: string }> {
  const { packageDir, args, env } = await containerOf('cli', vars, {});
  const cli = startNodeProcess([...args, ...cliArgs], env, packageDir);
  const { code } = await cli.exited;
  return { code, output: cli.output() };
}

describe('docker compose up, on loopback', () => {
  const vars = composeTestVars();

  it('when the stack starts in compose order, then auth, api and worker each become ready', async () => {
    for (const name of ['auth', 'api', 'worker']) {
      const port = await freePort();
      const { chain, packageDir, args, env } = await containerOf(name, vars, {
        [containerPorts[name].variable]: String(port),
      });
      expect(env.NODE_ENV).toBe('production');
      // The image's WORKDIR is the package's folder: relative paths in its command resolve there.
      const service = startNodeProcess(args, env, packageDir);
      running.push(service);
      const ready = await waitForHealthy(service, `http://127.0.0.1:${port}${READINESS_PATH}`, 60_000);
      expect(ready.status).toBe(200);
      const healthcheck = healthcheckOf(chain);
      expect(healthcheck.port).toBe(containerPorts[name].port);
      expect((await fetch(`http://127.0.0.1:${port}${healthcheck.path}`)).status).toBe(200);
      await waitForOutput(service, (output) => (/listening|running/.test(output) ? true : undefined));
    }
  }, 180_000);

  it('when the operator follows the README, then the CLI image migrates, creates a user and a client', async () => {
    const migrate = await runCli(vars, ['migrate']);
    expect([migrate.code, migrate.output]).toEqual([0, expect.stringContaining('"applied"')]);
    const email = `compose-${Date.now()}@example.test`;
    const user = await runCli(vars, [
      'user:create',
      '--email',
      email,
      '--password',
      'a long enough password',
    ]);
    expect([user.code, user.output]).toEqual([0, expect.stringContaining(email)]);
    const client = await runCli(vars, [
      'client:create',
      '--name',
      'Compose test',
      '--redirect-uri',
      'https://app.example.test/callback',
      '--scope',
      'user:r',
    ]);
    expect([client.code, client.output]).toEqual([0, expect.stringContaining('"client_secret"')]);
  }, 60_000);

  it('when SIGTERM reaches each service (docker compose down), then each stops and exits 0', async () => {
    expect(running).toHaveLength(3);
    for (const service of running.splice(0)) {
      await service.stop();
      expect(await service.exited).toEqual({ code: 0, signal: null });
    }
  }, 60_000);
});
