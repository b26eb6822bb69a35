import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import { AppError } from '@pfs/errors';
import { verifyDownloadToken } from '@pfs/storage';
import { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { sendStoredObject } from '../../http/send-stored-object';

/** `exports/<user id>/<export id>/<file name>`, the layout the worker stores export files under. */
const KEY = new RegExp(
  `^exports/(${RESOURCE_ID_PATTERN})/(${RESOURCE_ID_PATTERN})/([A-Za-z0-9][A-Za-z0-9._-]{0,199})$`,
);

const forbidden = (description: string) => new AppError('FORBIDDEN', { description });

/**
 * GET /export-files/<key>?token=…: the filesystem driver's download links. No bearer token: the signed,
 * expiring link is the credential, and it opens exactly the file it was signed for. The export must still
 * exist (a deleted or expired export's link stops working even before the token expires).
 */
export function exportFilesRoutes(
  deps: Pick<ApiDependencies, 'repos' | 'store' | 'config' | 'storage'>,
): Router {
  const router = Router();
  const exportsRepo = deps.repos.exports;
  router.get(/^\/export-files\/(.+)$/, async (req, res) => {
    const key = String((req.params as Record<string, string>)[0]);
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const match = KEY.exec(key);
    if (!match || !token) throw forbidden('This download link is not valid.');
    const check = verifyDownloadToken(deps.config.EXPORT_LINK_SECRET, key, token);
    if (!check.valid) {
      throw forbidden(
        check.reason === 'expired' ? 'This download link has expired.' : 'This download link is not valid.',
      );
    }
    const [, userId, exportId, filename] = match;
    const record = await exportsRepo.findById(deps.store.read({ userId }), exportId);
    if (!record || record.storageKey !== key)
      throw new AppError('OBJECT_NOT_FOUND', { description: 'This export no longer exists.' });
    await sendStoredObject(
      deps.storage,
      key,
      res,
      {
        // The type the worker recorded when it stored the file (services/worker content-types.ts).
        'Content-Type': record.contentType ?? 'application/octet-stream',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'private, no-store',
      },
      () => new AppError('OBJECT_NOT_FOUND', { description: 'This export file no longer exists.' }),
    );
  });
  return router;
}
