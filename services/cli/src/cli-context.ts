import { databaseShape, defineConfig, Env, redisShape, runtimeShape } from '@pfs/config';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The whole of standard input (`--password-stdin`); absent when the caller has none to give. */
  readStdin?: () => Promise<string>;
}

/** A usage or input problem: printed without a stack, exit code 2. */
export class CliUsageError extends Error {}

export const loadCliConfig = (env: Env) =>
  defineConfig({ ...runtimeShape, ...databaseShape, ...redisShape }, env);
export type CliConfig = ReturnType<typeof loadCliConfig>;
