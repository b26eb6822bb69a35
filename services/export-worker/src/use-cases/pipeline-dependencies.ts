import type { Logger } from '@pfs/logger';
import type {
  ExportRepository,
  NotificationRepository,
  PushTokenRepository,
  UserRepository,
} from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';
import type { DataSource } from 'typeorm';
import type { Mailer } from '../delivery/mailer';
import type { UserSlots } from '../delivery/user-slots';

/** What the export pipeline needs, and nothing more (tests build it with real parts). */
export interface PipelineDependencies {
  logger: Logger;
  dataSource: DataSource;
  storage: ObjectStorage;
  exports: ExportRepository;
  notifications: NotificationRepository;
  pushTokens: PushTokenRepository;
  users: UserRepository;
  slots: UserSlots;
  mailer?: Mailer;
  /** Sends the push outbox's due pushes (absent: pushes wait for the scheduled job). */
  sendPushes?: () => Promise<number>;
  /** Lifetime of the file and its link. */
  ttlSeconds: number;
}
