import type { ExportRecord } from '@pfs/resource-store';
import { moveExport } from './move-export';
import type { PipelineDependencies } from './pipeline-dependencies';

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * sending → sent: the export reaches the user. "Sent" means all of: a notification in
 * /me/notifications; a push queued in the outbox for each registered device when the export is not `seen`
 * (then sent to the providers: docs/exports.md, "Push"); and, when SMTP_URL is set, an email with the link.
 * The notification and pushes are recorded once per export, so a retry never repeats them. A provider's
 * outage does not hold the export back: its pushes stay in the outbox and the scheduled job retries them.
 */
export async function deliverExport(
  deps: PipelineDependencies,
  record: ExportRecord,
): Promise<ExportRecord | undefined> {
  const until = record.validUntil?.toISOString().replace(/\.\d{3}Z$/, 'Z') ?? '';
  const text = `Your export ${record.filename} (${formatSize(record.filesize ?? 0)}) is ready to download until ${until}.`;
  const user = deps.repos.store.read(record.userId);
  const notification = await deps.repos.notifications.createForExport(user, record.id, {
    type: 'export',
    action: 'generated',
    text,
  });
  if (!record.seen) {
    for (const device of await deps.repos.pushTokens.listForUser(user)) {
      await deps.repos.pushTokens.recordDelivery(user, device.id, notification.id, {
        device_type: device.type,
        notification: { id: notification.id, type: 'export', action: 'generated', text },
        export: { id: record.id, status: 'generated' },
      });
    }
    await deps
      .sendPushes?.()
      .catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'pushes left in the outbox for the next run'),
      );
  }
  if (deps.mailer) {
    const user = await deps.repos.users.findById(record.userId);
    if (user) {
      await deps.mailer.send({
        to: user.email,
        subject: 'Your export is ready',
        text: `${text}\n\nDownload: ${record.downloadUrl}\n`,
      });
    }
  }
  return moveExport(deps.repos, record, ['sending'], 'sent');
}
