import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { apiConfigShape } from '../../services/api/src/config';
import { authConfigShape } from '../../services/auth/src/config';
import { workerConfigShape } from '../../services/worker/src/config';
import {
  loadCompose,
  MissingVariableError,
  readEnvFile,
  referencedVariables,
  repoRoot,
} from './support/compose-file';
import { chainOf, execFormOf, readDockerfile } from './support/dockerfile';
import { composeTestVars, requiredSecrets } from './support/compose-vars';

/** docker-compose.yml, .env.example and infra/docker/Dockerfile agree with each other and with the build. */
const envExample = readEnvFile(join(repoRoot, '.env.example'));
const { args: dockerArgs, stages } = readDockerfile();
const appServices: Record<string, Record<string, unknown>> = {
  auth: authConfigShape,
  api: apiConfigShape,
  worker: workerConfigShape,
};

function missingOf(vars: Record<string, string | undefined>): { name: string; message: string }[] {
  try {
    loadCompose(vars);
  } catch (error) {
    if (error instanceof MissingVariableError) return error.missing;
    throw error;
  }
  return [];
}

describe('docker-compose.yml interpolation', () => {
  it('when .env.example is used as it is, then compose refuses to start naming every required secret', () => {
    const missing = missingOf(envExample.vars);
    expect(missing.map((m) => m.name).sort()).toEqual([...requiredSecrets].sort());
    for (const { name, message } of missing)
      expect(message).toMatch(new RegExp(`^set ${name} in \\.env \\(`));
  });

  it.each(requiredSecrets)('when only %s is missing, then compose fails with its message', (name) => {
    const vars = { ...composeTestVars(), [name]: undefined };
    expect(() => loadCompose(vars)).toThrow(
      `required variable ${name} is missing a value: set ${name} in .env (`,
    );
  });

  it('when every secret is set, then the app services get them and `$$` stays a literal dollar', () => {
    const vars = composeTestVars();
    const { services } = loadCompose(vars);
    expect(services.api.environment!.SYNC_TOKEN_SECRET).toBe(vars.SYNC_TOKEN_SECRET);
    expect(services.api.environment!.EXPORT_LINK_SECRET).toBe(vars.EXPORT_LINK_SECRET);
    expect(services['worker'].environment!.EXPORT_LINK_SECRET).toBe(vars.EXPORT_LINK_SECRET);
    expect(services.auth.environment!.AUTH_OTP_ENCRYPTION_KEY).toBe(vars.AUTH_OTP_ENCRYPTION_KEY);
    expect(services.api.environment!.DATABASE_URL).toBe(
      `postgres://pfs:${vars.POSTGRES_PASSWORD}@postgres:5432/pfs`,
    );
    expect(JSON.stringify(services['minio-bucket'])).toContain('${MINIO_ROOT_USER}');
  });
});

describe('.env.example', () => {
  it('lists every variable the compose file reads, each with a comment, and nothing it does not read', () => {
    expect(Object.keys(envExample.vars).sort()).toEqual(referencedVariables());
    for (const [name, comment] of Object.entries(envExample.comments)) {
      expect([name, comment.length > 10]).toEqual([name, true]);
    }
  });

  it('ships no secret value: every required secret is empty', () => {
    for (const name of requiredSecrets) expect([name, envExample.vars[name]]).toEqual([name, '']);
  });
});

describe('images', () => {
  it('every image compose pulls or tags is pinned to an exact version, never latest', () => {
    const { services } = loadCompose(composeTestVars());
    const images = Object.values(services).map((s) => s.image!);
    images.push(dockerArgs.NODE_IMAGE);
    for (const image of images) {
      const tag = image.split(':').at(-1)!;
      expect([image, /\d+\.\d+|\d{4}-\d\d-\d\d|^local$/.test(tag) && tag !== 'latest']).toEqual([
        image,
        true,
      ]);
    }
    expect(dockerArgs.NODE_IMAGE).toMatch(/^node:\d+\.\d+\.\d+-/);
  });

  it('every app service passes only variables its config reads (a typo would be silently ignored)', () => {
    const { services } = loadCompose(composeTestVars());
    for (const [name, shape] of Object.entries(appServices)) {
      const unknown = Object.keys(services[name].environment!).filter((key) => !(key in shape));
      expect([name, unknown]).toEqual([name, []]);
    }
  });
});

describe('infra/docker/Dockerfile', () => {
  const { services } = loadCompose(composeTestVars());
  const built = Object.entries(services).filter(([, s]) => s.build);

  it('caches dependencies: the lockfile is copied and fetched before the source, which installs offline', () => {
    const chain = chainOf(stages, 'build');
    const lockfileCopy = chain.findIndex((i) => i.keyword === 'COPY' && i.args.includes('pnpm-lock.yaml'));
    const fetch = chain.findIndex((i) => i.keyword === 'RUN' && /pnpm fetch/.test(i.args));
    const sourceCopy = chain.findIndex((i) => i.keyword === 'COPY' && /^\.\s+\.$/.test(i.args));
    const install = chain.findIndex((i) => i.keyword === 'RUN' && /pnpm install/.test(i.args));
    expect(lockfileCopy).toBeGreaterThanOrEqual(0);
    expect(lockfileCopy).toBeLessThan(fetch);
    expect(fetch).toBeLessThan(sourceCopy);
    expect(sourceCopy).toBeLessThan(install);
    expect(chain[install].args).toMatch(/pnpm install --offline --frozen-lockfile/);
  });

  it.each(built.map(([name, service]) => [name, service.build!.target!]))(
    '%s: its target runs as a non-root user and its entry point exists in the build output',
    (_name, target) => {
      const chain = chainOf(stages, target);
      const user = chain.filter((i) => i.keyword === 'USER').at(-1)?.args;
      expect(user).toBe('node');
      const copy = chain.find((i) => i.keyword === 'COPY' && i.args.startsWith('--from=build'))!;
      const [, service] = /\/out\/(\S+)/.exec(copy.args)!;
      const command = [...(execFormOf(chain, 'ENTRYPOINT') ?? []), ...(execFormOf(chain, 'CMD') ?? [])];
      expect(command[0]).toBe('node');
      const entry = command.find((arg) => arg.endsWith('.js'))!;
      expect(existsSync(join(repoRoot, 'services', service, entry))).toBe(true);
    },
  );

  it('builds the operator CLI image, which compose runs on demand', () => {
    expect(services.cli.build!.target).toBe('cli');
    expect(services.cli.profiles).toEqual(['tools']);
    expect(execFormOf(chainOf(stages, 'cli'), 'ENTRYPOINT')).toEqual(['node', 'dist/main.js']);
  });
});
