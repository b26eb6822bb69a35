import { RawRow, ResourceTable, Snapshot, SyncedRecord } from '../sync/resource-table';

export const IMAGE_TYPES = ['image', 'pdf'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const IMAGE_STATUSES = ['new', 'uploaded', 'error', 'deleting'] as const;
export type ImageStatus = (typeof IMAGE_STATUSES)[number];

/** An uploaded image or PDF as plain data; its files live in object storage under `storagePrefix`. */
export interface ImageRecord extends SyncedRecord {
  type: ImageType;
  status: ImageStatus;
  filename: string | null;
  /** Bytes of the file as uploaded. */
  size: number | null;
  /** The type sniffed from the uploaded bytes (`image/png`, `application/pdf`, …). */
  contentType: string;
  /** Storage folder of the files (`images/<user>/<random>`), never reused. */
  storagePrefix: string;
}

/** What an upload stores: the server-owned fields plus the writable ones (filename, extra). */
export interface NewImage {
  type: ImageType;
  status: ImageStatus;
  filename?: string;
  size: number;
  contentType: string;
  storagePrefix: string;
  extra?: Record<string, unknown>;
}

/**
 * The images table on the shared ResourceTable. Only `filename` and `extra` are writable after the upload,
 * so they alone form the snapshot (revisions, merges); the server-owned columns are written once, at insert.
 */
export const imagesTable = new ResourceTable<ImageRecord>({
  table: 'images',
  kind: 'images',
  columns: ['type', 'status', 'filename', 'size', 'content_type', 'storage_prefix'],
  toRecord: (row: RawRow) =>
    ResourceTable.withCommonFields(row, {
      type: row.type as ImageType,
      status: row.status as ImageStatus,
      filename: (row.filename as string | null) ?? null,
      size: row.size === null || row.size === undefined ? null : Number(row.size),
      contentType: String(row.content_type),
      storagePrefix: String(row.storage_prefix),
    }),
  toSnapshot: (record) => ({
    filename: record.filename ?? undefined,
    extra: record.extra ?? undefined,
  }),
  toColumns: (snapshot: Snapshot) => {
    const columns: Record<string, unknown> = {
      filename: snapshot.filename ?? null,
      extra: snapshot.extra === undefined ? null : JSON.stringify(snapshot.extra),
    };
    // Present only in an insert (see NewImage): an update never rewrites the server-owned columns.
    if (snapshot.storage_prefix !== undefined) {
      Object.assign(columns, {
        type: snapshot.type,
        status: snapshot.status,
        size: snapshot.size,
        content_type: snapshot.content_type,
        storage_prefix: snapshot.storage_prefix,
      });
    }
    return columns;
  },
});
