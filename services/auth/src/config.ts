import {
  Env,
  databaseShape,
  defineConfig,
  envInt,
  envPort,
  envString,
  publicUrlShape,
  redisShape,
  runtimeShape,
} from '@pfs/config';

export const authConfigShape = {
  ...runtimeShape,
  ...databaseShape,
  ...redisShape,
  ...publicUrlShape,
  AUTH_PORT: envPort(3001),
  /** Interface to listen on; 0.0.0.0 inside containers. */
  AUTH_HOST: envString('127.0.0.1'),
  ACCESS_TOKEN_TTL_SECONDS: envInt(3600, 60, 86_400 * 30),
  AUTH_CODE_TTL_SECONDS: envInt(30, 1, 600),
  /** How long a sign-in on the authorization pages lasts. */
  SESSION_TTL_SECONDS: envInt(43_200, 60, 86_400 * 30),
};

export type AuthConfig = ReturnType<typeof loadAuthConfig>;

export function loadAuthConfig(env: Env = process.env) {
  return defineConfig(authConfigShape, env);
}
