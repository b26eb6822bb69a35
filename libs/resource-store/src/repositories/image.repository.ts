import { isResourceId } from '@pfs/contracts';
import type { DataSource } from 'typeorm';
import { withUserChange } from '../sync/change-sequence';
import type { PageRequest, PageResult, Snapshot } from '../sync/resource-table';
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

/** Images of one user, as plain data; every write claims the user's change sequence. */
export class ImageRepository {
  constructor(private readonly source: DataSource) {}

  list(userId: string, page: PageRequest, filters: ImageFilters = {}): Promise<PageResult<ImageRecord>> {
    return imagesTable.list(this.source, userId, page, filtersOf(filters));
  }

  findById(userId: string, id: string): Promise<ImageRecord | undefined> {
    return imagesTable.findById(this.source, userId, id);
  }

  /** The user's live images among `ids` (one query, whatever the number). */
  findLiveByIds(userId: string, ids: string[]): Promise<ImageRecord[]> {
    return imagesTable.findByIds(this.source, userId, [...new Set(ids)]);
  }

  create(userId: string, image: NewImage): Promise<ImageRecord> {
    const snapshot: Snapshot = {
      filename: image.filename,
      extra: image.extra,
      type: image.type,
      status: image.status,
      size: image.size,
      content_type: image.contentType,
      storage_prefix: image.storagePrefix,
    };
    return withUserChange(this.source, userId, (manager, seq) =>
      imagesTable.insert(manager, userId, seq, snapshot),
    );
  }

  update(
    userId: string,
    id: string,
    decide: (
      current: ImageRecord,
      loadRevision: (at: Date) => Promise<Snapshot | undefined>,
    ) => Promise<Snapshot>,
  ): Promise<ImageRecord | undefined> {
    return imagesTable.updateGuarded(this.source, userId, id, decide);
  }

  /**
   * Soft-deletes an image (status `deleting`: its files are removed next, by the caller) and takes it off
   * every entry holding it, in one change: a syncing client sees those entries change with it. Returns
   * the image as it was, or undefined when the user has no such live image.
   */
  async delete(userId: string, id: string): Promise<ImageRecord | undefined> {
    return withUserChange(this.source, userId, async (manager, changeSeq) => {
      const image = await imagesTable.findById(manager, userId, id, { forUpdate: true });
      if (!image) return undefined;
      await imagesTable.softDelete(manager, userId, [id], changeSeq);
      await manager.query(`UPDATE images SET status = 'deleting' WHERE id = $1`, [id]);
      const touched = await manager.query(
        `UPDATE entries SET image_ids = array_remove(image_ids, $2::bigint), change_seq = $3,
           modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')
         WHERE user_id = $1 AND image_ids <> '{}' AND $2::bigint = ANY(image_ids) AND NOT deleted
         RETURNING id::text AS id`,
        [userId, id, changeSeq],
      );
      const entryIds = returnedRows(touched).map((row) => String(row.id));
      await entriesTable.recordRevisions(manager, userId, entryIds);
      return image;
    });
  }
}
