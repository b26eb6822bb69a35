import type { z } from 'zod';
import type { Env } from './env';

/**
 * Defaults computed from other variables, applied (in this order) before parsing when the variable is
 * unset and the service reads it. An operator who sets only API_PORT or BASE_URL gets public URLs that
 * agree with it, instead of links to a port nothing listens on.
 */
const derivations: [name: string, derive: (input: Record<string, string>, env: Env) => string | undefined][] =
  [
    // Port 0 (an ephemeral port, tests) says nothing about the public address: keep the documented default.
    [
      'BASE_URL',
      (_input, env) =>
        /^[1-9]\d*$/.test(env.API_PORT ?? '') ? `http://127.0.0.1:${env.API_PORT}` : undefined,
    ],
    [
      'EXPORT_URL',
      (input) => (input.BASE_URL ? `${input.BASE_URL.replace(/\/+$/, '')}/export-files` : undefined),
    ],
  ];

export function applyDerivedDefaults(input: Record<string, string>, env: Env, shape: z.ZodRawShape): void {
  for (const [name, derive] of derivations) {
    if (!(name in shape) || input[name] !== undefined) continue;
    const value = derive(input, env);
    if (value !== undefined) input[name] = value;
  }
}
