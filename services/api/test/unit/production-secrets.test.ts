import { ConfigError } from '@pfs/config';
import { loadAuthConfig } from '@pfs/auth';
import { loadWorkerConfig } from '@pfs/worker';
import { loadApiConfig } from '../../src/config';

/** Every service's config schema refuses its production secrets at their development defaults (issue 14). */
const refused = (name: string) =>
  `${name}: must be set to a secret value in production (the development default is refused)`;

function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const production = { NODE_ENV: 'production' };

describe('production secrets of each service', () => {
  it('when the api starts in production with defaults, then SYNC_TOKEN_SECRET, EXPORT_LINK_SECRET and WEBHOOK_SECRET_KEY are refused', () => {
    expect(problemsOf(() => loadApiConfig(production)).sort()).toEqual(
      [refused('EXPORT_LINK_SECRET'), refused('SYNC_TOKEN_SECRET'), refused('WEBHOOK_SECRET_KEY')].sort(),
    );
  });

  it('when the api has only SYNC_TOKEN_SECRET set, then EXPORT_LINK_SECRET and WEBHOOK_SECRET_KEY are still refused', () => {
    const env = { ...production, SYNC_TOKEN_SECRET: 'a-long-enough-sync-secret' };
    expect(problemsOf(() => loadApiConfig(env)).sort()).toEqual(
      [refused('EXPORT_LINK_SECRET'), refused('WEBHOOK_SECRET_KEY')].sort(),
    );
  });

  it('when auth starts in production with defaults, then AUTH_OTP_ENCRYPTION_KEY is refused', () => {
    expect(problemsOf(() => loadAuthConfig(production))).toEqual([refused('AUTH_OTP_ENCRYPTION_KEY')]);
  });

  it('when the worker starts in production with defaults, then EXPORT_LINK_SECRET and WEBHOOK_SECRET_KEY are refused', () => {
    expect(problemsOf(() => loadWorkerConfig(production)).sort()).toEqual(
      [refused('EXPORT_LINK_SECRET'), refused('WEBHOOK_SECRET_KEY')].sort(),
    );
  });

  it('when every secret is set, then each service loads in production', () => {
    const env = {
      ...production,
      SYNC_TOKEN_SECRET: 'a-long-enough-sync-secret',
      EXPORT_LINK_SECRET: 'an-export-link-secret',
      AUTH_OTP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64url'),
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64url'),
    };
    expect(loadApiConfig(env).NODE_ENV).toBe('production');
    expect(loadAuthConfig(env).NODE_ENV).toBe('production');
    expect(loadWorkerConfig(env).NODE_ENV).toBe('production');
  });
});
