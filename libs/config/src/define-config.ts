import { z } from 'zod';
import { productionSecretProblem, secretsAtDevelopmentDefault } from './production-secrets';
import { applyDerivedDefaults } from './derived-defaults';
import type { Env } from './env';

/** Thrown at boot when the environment does not satisfy a service's config schema. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses `env` once against a zod object whose keys are the environment variable names.
 * Returns a frozen, typed object or throws a ConfigError naming every bad or missing variable.
 * Empty strings count as unset, so `FOO=` falls back to the default like an absent variable.
 * With NODE_ENV=production, a secret field (envSecret) left at its development default is a ConfigError too.
 */
export function defineConfig<S extends z.ZodRawShape>(
  shape: S,
  env: Env = process.env,
): Readonly<z.infer<z.ZodObject<S>>> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  applyDerivedDefaults(input, env, shape);
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const got = input[name] === undefined ? 'it is not set' : `got ${JSON.stringify(input[name])}`;
        return `${name}: ${issue.message} (${got})`;
      }),
    );
  }
  const nodeEnv = (result.data as { NODE_ENV?: string }).NODE_ENV ?? env.NODE_ENV;
  if (nodeEnv === 'production') {
    const refused = secretsAtDevelopmentDefault(shape, result.data);
    if (refused.length) throw new ConfigError(refused.map(productionSecretProblem));
  }
  return Object.freeze(result.data);
}
