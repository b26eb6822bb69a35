import { z } from 'zod';
import { ConfigError, defineConfig } from './define-config';
import { envSecret, secretsAtDevelopmentDefault, warnAboutDevelopmentSecrets } from './production-secrets';
import { databaseShape, publicUrlShape, runtimeShape } from './shared-shapes';

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('DATABASE_URL', () => {
  it.each(['postgres://pfs@db:5432/pfs', 'postgresql://pfs@db:5432/pfs'])(
    'when it is %s, then it is accepted',
    (url) => {
      expect(defineConfig(databaseShape, { DATABASE_URL: url }).DATABASE_URL).toBe(url);
    },
  );

  it.each(['mysql://pfs@db:3306/pfs', 'http://db:5432/pfs'])(
    'when it is %s, then the rule is stated',
    (url) => {
      expect(problemsOf(() => defineConfig(databaseShape, { DATABASE_URL: url }))).toEqual([
        `DATABASE_URL: must start with postgres:// or postgresql:// (got "${url}")`,
      ]);
    },
  );
});

describe('production secrets', () => {
  const shape = {
    ...runtimeShape,
    SIGNING_SECRET: envSecret('dev-signing-secret', z.string().min(16, 'must be at least 16 characters')),
    OTHER_SECRET: envSecret('dev-other'),
  };

  it('when NODE_ENV=production and secrets keep their development defaults, then each is refused by name', () => {
    expect(problemsOf(() => defineConfig(shape, { NODE_ENV: 'production' }))).toEqual([
      'SIGNING_SECRET: must be set to a secret value in production (the development default is refused)',
      'OTHER_SECRET: must be set to a secret value in production (the development default is refused)',
    ]);
  });

  it('when NODE_ENV=production and a secret is set explicitly to its default, then it is still refused', () => {
    const problems = problemsOf(() =>
      defineConfig(shape, {
        NODE_ENV: 'production',
        SIGNING_SECRET: 'dev-signing-secret',
        OTHER_SECRET: 'x',
      }),
    );
    expect(problems).toEqual([
      'SIGNING_SECRET: must be set to a secret value in production (the development default is refused)',
    ]);
  });

  it('when NODE_ENV=production and secrets are set, then the config loads and the secret rule still applies', () => {
    const env = { NODE_ENV: 'production', SIGNING_SECRET: 'a-real-secret-value-1234', OTHER_SECRET: 'x' };
    expect(defineConfig(shape, env).SIGNING_SECRET).toBe('a-real-secret-value-1234');
    expect(problemsOf(() => defineConfig(shape, { ...env, SIGNING_SECRET: 'short' }))).toEqual([
      'SIGNING_SECRET: must be at least 16 characters (got "short")',
    ]);
  });

  it('when not in production, then defaults load and one warning per defaulted secret is given', () => {
    const config = defineConfig(shape, { NODE_ENV: 'development', OTHER_SECRET: 'set' });
    expect(secretsAtDevelopmentDefault(shape, config)).toEqual(['SIGNING_SECRET']);
    const warnings: string[] = [];
    warnAboutDevelopmentSecrets(shape, config, (message) => warnings.push(message));
    expect(warnings).toEqual([
      'SIGNING_SECRET uses its development default: set it before exposing this service',
    ]);
  });
});

describe('public URL defaults', () => {
  it('when only BASE_URL is set, then EXPORT_URL is BASE_URL + /export-files', () => {
    const config = defineConfig(publicUrlShape, { BASE_URL: 'https://pfs.example.com/' });
    expect(config.BASE_URL).toBe('https://pfs.example.com');
    expect(config.EXPORT_URL).toBe('https://pfs.example.com/export-files');
  });

  it('when only API_PORT is set, then BASE_URL and EXPORT_URL use that port', () => {
    const config = defineConfig(publicUrlShape, { API_PORT: '8080' });
    expect(config.BASE_URL).toBe('http://127.0.0.1:8080');
    expect(config.EXPORT_URL).toBe('http://127.0.0.1:8080/export-files');
  });

  it('when EXPORT_URL is set, then it wins over the derived default', () => {
    const config = defineConfig(publicUrlShape, {
      BASE_URL: 'https://pfs.example.com',
      EXPORT_URL: 'https://files.example.com/pfs',
    });
    expect(config.EXPORT_URL).toBe('https://files.example.com/pfs');
  });

  it('when nothing is set, then the documented defaults apply', () => {
    expect(defineConfig(publicUrlShape, {})).toEqual({
      BASE_URL: 'http://127.0.0.1:3000',
      AUTH_URL: 'http://127.0.0.1:3001',
      EXPORT_URL: 'http://127.0.0.1:3000/export-files',
    });
  });
});
