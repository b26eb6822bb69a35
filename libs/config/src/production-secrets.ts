import { ConfigError } from './define-config';

/**
 * Development defaults for secrets make `npm start` work on a fresh clone; in production they would be
 * a hole, so boot fails there, and elsewhere the operator gets a loud warning.
 */
export function assertProductionSecret(options: {
  name: string;
  value: string;
  developmentDefault: string;
  nodeEnv: string;
  warn: (message: string) => void;
}): void {
  if (options.value !== options.developmentDefault) return;
  if (options.nodeEnv === 'production') {
    throw new ConfigError([
      `${options.name}: must be set to a secret value in production (the development default is refused)`,
    ]);
  }
  options.warn(`${options.name} uses its development default: set it before exposing this service`);
}
