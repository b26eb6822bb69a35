import type { Writable } from 'node:stream';
import { once } from 'node:events';
import type { UserArchiveRepository } from '@pfs/resource-store';

export const USER_DATA_FORMAT = 'pfs.user_data';
export const USER_DATA_VERSION = 1;

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Streams every piece of a user's data as one JSON document (docs/exports.md, "user_data"):
 * `{format, version, exported_at, user, tables: {<table>: [rows…]}}`, rows as Postgres's row_to_json
 * gives them (numerics as exact numbers, timestamps ISO 8601). One table is read at a time, by cursor.
 */
export async function writeUserDataArchive(
  archives: UserArchiveRepository,
  userId: string,
  out: Writable,
): Promise<void> {
  const header = {
    format: USER_DATA_FORMAT,
    version: USER_DATA_VERSION,
    exported_at: new Date().toISOString(),
    user: await archives.profile(userId),
  };
  await write(out, `${JSON.stringify(header).slice(0, -1)},"tables":{`);
  const tables = await archives.dataTables();
  for (const [index, table] of tables.entries()) {
    await write(out, `${index ? ',' : ''}${JSON.stringify(table.name)}:[`);
    let first = true;
    for await (const json of archives.rowsAsJson(table, userId)) {
      await write(out, `${first ? '' : ','}${json}`);
      first = false;
    }
    await write(out, ']');
  }
  out.end('}}');
  await once(out, 'finish');
}
