import type { Logger } from '@pfs/logger';

export interface ServiceLifecycle {
  /** Connects, migrates and listens; a rejection is a fatal start-up failure. */
  start(): Promise<void>;
  /** Drains work and closes connections; must be safe to call once after a partial start. */
  stop(): Promise<void>;
}

/**
 * Runs a service as a process: start, then stop on SIGTERM or SIGINT and exit 0.
 * A start-up failure prints a readable reason and exits 1; a second signal exits at once (`npm start`
 * sends each service only one, so a Ctrl-C drains).
 */
export async function runService(name: string, logger: Logger, lifecycle: ServiceLifecycle): Promise<void> {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    try {
      await lifecycle.stop();
      logger.info(`${name} stopped`);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, `${name} failed to stop cleanly`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Run by a supervisor over IPC (`npm start`): if it dies, even by SIGKILL, this service must not live
  // on as an orphan still holding its port.
  if (process.send) process.on('disconnect', () => void shutdown('supervisor gone'));
  try {
    await lifecycle.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.fatal({ err: error }, `${name} failed to start: ${reason}`);
    console.error(`${name} failed to start: ${reason}`);
    await lifecycle.stop().catch(() => undefined);
    process.exit(1);
  }
}
