import { isResourceId } from '@pfs/contracts';
import { transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import type { DecideUpdate, PageRequest, PageResult } from '../sync/resource-table';
import { returnedRows } from '../sync/resource-table';
import type { SqlFilter } from '../sync/sql-params';
import { entriesTable } from './entry.repository';
import { ImageRecord, imagesTable, ImageType, NewImage } from './images-table';

export interface ImageFilters {
  type?: ImageType;
  ids?: string[];
}

const validIds = (ids: string[]) => ids.filter(isResourceId);

function filtersOf(filters: ImageFilters): SqlFilter[] {
  const out: SqlFilter[] = [];
  if (filters.type) out.push((p) => `t.type = ${p(filters.type)}`);
  if (filters.ids) out.push((p) => `t.id = ANY(${p(validIds(filters.ids!))}::bigint[])`);
  return out;
}

/** Images of one user, as plain data; writes run in the caller's change. */
export class ImageRepository {
  readonly table = imagesTable;

  list(read: UserRead, page: PageRequest, filters: ImageFilters = {}): Promise<PageResult<ImageRecord>> {
    return imagesTable.list(read, page, filtersOf(filters));
  }

  findById(read: UserRead, id: string): Promise<ImageRecord | undefined> {
    return imagesTable.findById(read, id);
  }

  /** The user's live images among `ids` (one query, whatever the number). */
  findLiveByIds(read: UserRead, ids: string[]): Promise<ImageRecord[]> {
    return imagesTable.findByIds(read, [...new Set(ids)]);
  }

  create(change: UserChange, image: NewImage): Promise<ImageRecord> {
    return imagesTable.insert(change, {
      filename: image.filename,
      extra: image.extra,
      type: image.type,
      status: image.status,
      size: image.size,
      content_type: image.contentType,
      storage_prefix: image.storagePrefix,
    });
  }

  update(
    change: UserChange,
    id: string,
    decide: DecideUpdate<ImageRecord>,
  ): Promise<ImageRecord | undefined> {
    return imagesTable.updateGuarded(change, id, decide);
  }

  /**
   * Soft-deletes an image (status `deleting`: its files are removed next, by the caller) and takes it off
   * every entry holding it, in the change: a syncing client sees those entries change with it. Returns
   * the image as it was, or undefined when the user has no such live image.
   */
  async delete(change: UserChange, id: string): Promise<ImageRecord | undefined> {
    const manager = transactionOf(change);
    const image = await imagesTable.findById(change, id, { forUpdate: true });
    if (!image) return undefined;
    await imagesTable.softDelete(change, [id]);
    await manager.query(`UPDATE images SET status = 'deleting' WHERE id = $1 AND user_id = $2`, [
      id,
      change.userId,
    ]);
    const touched = await manager.query(
      `UPDATE entries SET image_ids = array_remove(image_ids, $2::bigint), change_seq = $3,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')
       WHERE user_id = $1 AND image_ids <> '{}' AND $2::bigint = ANY(image_ids) AND NOT deleted
       RETURNING id::text AS id`,
      [change.userId, id, change.changeSeq],
    );
    const entryIds = returnedRows(touched).map((row) => String(row.id));
    await entriesTable.recordRevisions(change, entryIds);
    return image;
  }
}
