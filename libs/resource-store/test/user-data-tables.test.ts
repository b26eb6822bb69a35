import {
  createDataSource,
  PRIVATE_USER_TABLES,
  resourceEntities,
  USER_DATA_TABLES,
  UserArchiveRepository,
} from '@pfs/resource-store';
import type { DataSource } from 'typeorm';

let source: DataSource;

beforeAll(async () => {
  source = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 1, entities: resourceEntities });
  await source.initialize();
});
afterAll(() => source.destroy());

describe('the user_data archive table list', () => {
  it('classifies every table of the migrated schema that holds a user_id: exported or private, never both', async () => {
    const rows: Array<{ table_name: string }> = await source.query(
      `SELECT DISTINCT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t
         ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = current_schema() AND c.column_name = 'user_id'`,
    );
    const withUserId = rows.map((row) => row.table_name).sort();
    const classified = [...USER_DATA_TABLES, ...PRIVATE_USER_TABLES].sort();
    expect(new Set(classified).size).toBe(classified.length);
    expect(withUserId).toEqual(classified);
  });

  it('leaves out the columns derived from the others for speed (an entry’s presented JSON), keeps the data', async () => {
    const tables = await new UserArchiveRepository(source).dataTables();
    const entries = tables.find((table) => table.name === 'entries')!.columns;
    expect(entries).not.toContain('presented_line');
    expect(entries).toEqual(
      expect.arrayContaining(['id', 'amount', 'currency', 'description', 'modified_at']),
    );
  });
});
