import { z } from 'zod';

/**
 * Development defaults for secrets make `npm start` work on a fresh clone; in production they would be
 * a hole. Each secret field remembers its development default here, so the config schema itself
 * (defineConfig) refuses it when NODE_ENV=production, for every service that reads the field.
 */
const developmentDefaults = new WeakMap<z.ZodTypeAny, string>();

/** A secret variable: `rule` checks its form; its development default is refused in production. */
export function envSecret(
  developmentDefault: string,
  rule: z.ZodType<string, z.ZodTypeDef, string> = z.string(),
) {
  const field = rule.default(developmentDefault);
  developmentDefaults.set(field, developmentDefault);
  return field;
}

/** Names of the secret fields of `shape` whose value in `config` is still the development default. */
export function secretsAtDevelopmentDefault(
  shape: z.ZodRawShape,
  config: Readonly<Record<string, unknown>>,
): string[] {
  return Object.keys(shape).filter((name) => {
    const developmentDefault = developmentDefaults.get(shape[name]);
    return developmentDefault !== undefined && config[name] === developmentDefault;
  });
}

export const productionSecretProblem = (name: string) =>
  `${name}: must be set to a secret value in production (the development default is refused)`;

/** Outside production the defaults are allowed, with one loud warning per secret at boot. */
export function warnAboutDevelopmentSecrets(
  shape: z.ZodRawShape,
  config: Readonly<Record<string, unknown>>,
  warn: (message: string) => void,
): void {
  for (const name of secretsAtDevelopmentDefault(shape, config)) {
    warn(`${name} uses its development default: set it before exposing this service`);
  }
}
