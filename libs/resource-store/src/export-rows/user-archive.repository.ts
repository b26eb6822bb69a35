import type { DataSource } from 'typeorm';
import { streamRows } from './row-cursor';
import { DERIVED_COLUMNS, SECRET_COLUMN, USER_DATA_TABLES } from './user-data-tables';

/** One table of the user's data as the archive writes it: its name and the columns it may show. */
export interface UserDataTable {
  name: (typeof USER_DATA_TABLES)[number];
  columns: string[];
}

/** A live, uploaded image of the user, with the live entries that hold it. */
export interface ArchivedImage {
  id: string;
  type: 'image' | 'pdf';
  filename: string | null;
  storage_prefix: string;
  entries: string[] | null;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** What the user's archives are made of: the `user_data` JSON document and the `attachments` zip. */
export class UserArchiveRepository {
  constructor(private readonly source: DataSource) {}

  /** The user's own row, as Postgres's row_to_json gives it (null when the user is gone). */
  async profile(userId: string): Promise<Record<string, unknown> | null> {
    const rows: Array<{ user: Record<string, unknown> }> = await this.source.query(
      `SELECT row_to_json(u) AS user FROM users u WHERE u.id = $1`,
      [userId],
    );
    return rows[0]?.user ?? null;
  }

  /**
   * The user's data tables (USER_DATA_TABLES, in name order), each with its columns as the schema has them
   * now, minus any whose name says it holds a secret and any derived from the others (`DERIVED_COLUMNS`).
   */
  async dataTables(): Promise<UserDataTable[]> {
    const rows: Array<{ table_name: UserDataTable['name']; columns: string[] }> = await this.source.query(
      `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
       FROM information_schema.columns c
       WHERE c.table_schema = current_schema() AND c.table_name = ANY($1::text[])
       GROUP BY c.table_name ORDER BY c.table_name`,
      [USER_DATA_TABLES],
    );
    return rows.map((row) => ({
      name: row.table_name,
      columns: row.columns.filter(
        (column) => !SECRET_COLUMN.test(column) && !DERIVED_COLUMNS[row.table_name]?.includes(column),
      ),
    }));
  }

  /** The user's rows of one data table, each as row_to_json text, in id order, through a cursor. */
  async *rowsAsJson(table: UserDataTable, userId: string): AsyncIterable<string> {
    if (!USER_DATA_TABLES.includes(table.name)) throw new Error(`${table.name} is not a user data table`);
    const select = table.columns.map(quoteIdent).join(', ');
    const order = table.columns.includes('id') ? 'ORDER BY id' : '';
    const sql = `SELECT row_to_json(r)::text AS json FROM (SELECT ${select} FROM ${quoteIdent(table.name)} WHERE user_id = $1 ${order}) r`;
    for await (const row of streamRows<{ json: string }>(this.source, sql, [userId])) yield row.json;
  }

  /** The user's live uploaded images in id order, each with the ids of the live entries that hold it. */
  images(userId: string): AsyncIterable<ArchivedImage> {
    const sql = `SELECT i.id::text AS id, i.type, i.filename, i.storage_prefix,
        (SELECT array_agg(e.id::text ORDER BY e.id) FROM entries e
          WHERE e.user_id = i.user_id AND NOT e.deleted AND e.image_ids @> ARRAY[i.id]) AS entries
      FROM images i WHERE i.user_id = $1 AND NOT i.deleted AND i.status = 'uploaded' ORDER BY i.id`;
    return streamRows<ArchivedImage>(this.source, sql, [userId]);
  }
}
