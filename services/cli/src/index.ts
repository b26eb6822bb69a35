export { runCli } from './run-cli';
export type { CliIo } from './cli-context';
