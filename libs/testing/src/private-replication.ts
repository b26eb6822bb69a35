import { join } from 'node:path';
import {
  PrivatePostgres,
  PrivatePostgresOptions,
  privateDirectory,
  runPostgresTool,
  runPrivateCluster,
  startPrivatePostgres,
} from './private-stores';

/**
 * A private primary and its streaming replica, for read-replica tests: the primary is a new cluster with
 * `wal_level=replica`; the replica is `pg_basebackup -R` of it (standby.signal and primary_conninfo written by
 * the tool), started in hot standby on its own free port. Nothing touches the machine's shared server.
 */
export interface PrivateReplicatedPostgres {
  primary: PrivatePostgres;
  replica: PrivatePostgres;
  /** Stops both clusters and removes their files. */
  destroy(): Promise<void>;
}

const REPLICATION_SETTINGS = {
  wal_level: 'replica',
  max_wal_senders: 5,
  hot_standby: 'on',
  // The standby reports its replay position at once (the read-your-writes wait compares against it).
  wal_receiver_status_interval: '1s',
};

/** A primary (with `options.settings` added) and one replica of it, both started. */
export async function startPrivateReplicatedPostgres(
  options: PrivatePostgresOptions = {},
): Promise<PrivateReplicatedPostgres> {
  const primary = await startPrivatePostgres({
    settings: { ...REPLICATION_SETTINGS, ...options.settings },
  });
  try {
    const replica = await startPrivateReplica(primary, options);
    return {
      primary,
      replica,
      async destroy() {
        await replica.destroy();
        await primary.destroy();
      },
    };
  } catch (error) {
    await primary.destroy();
    throw error;
  }
}

/** A streaming replica of `primary` (pg_basebackup -R over loopback), started in hot standby. */
export async function startPrivateReplica(
  primary: PrivatePostgres,
  options: PrivatePostgresOptions = {},
): Promise<PrivatePostgres> {
  const root = privateDirectory('pfs-pg-replica-');
  const data = join(root, 'data');
  runPostgresTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  return runPrivateCluster(root, data, { settings: { ...REPLICATION_SETTINGS, ...options.settings } });
}
