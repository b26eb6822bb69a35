import { runService, startHttpServer, RunningHttpServer } from '@pfs/http';
import { createLogger } from '@pfs/logger';
import { buildAuthApp } from './app';
import { loadAuthConfig } from './config';
import { AuthDependencies, createAuthDependencies } from './dependencies';

/** config → dependencies → app → listen; SIGTERM drains and closes in reverse. */
async function main() {
  let config;
  try {
    config = loadAuthConfig();
  } catch (error) {
    console.error(`auth failed to start: ${(error as Error).message}`);
    process.exit(1);
  }
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL });
  let deps: AuthDependencies | undefined;
  let server: RunningHttpServer | undefined;
  await runService('auth', logger, {
    async start() {
      deps = await createAuthDependencies(config, logger);
      server = await startHttpServer(buildAuthApp(deps), { port: config.AUTH_PORT, host: config.AUTH_HOST });
      logger.info({ url: server.url }, 'auth listening');
    },
    async stop() {
      await server?.stop();
      await deps?.close();
    },
  });
}

void main();
