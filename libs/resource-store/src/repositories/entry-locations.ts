import { handleOf, type UserRead } from '../sync/user-change';
import { readWatermark } from '../sync/change-sequence';
import { SqlParams } from '../sync/sql-params';
import { buildEntryFilters, type EntryFilters } from './entry-filters';

/** A place where entries were made: the entries' `location`, grouped by its id (else its coordinates). */
export interface LocationGroup {
  /** The location's id, or `latitude,longitude` for entries whose location has no id. */
  key: string;
  id: string | null;
  venueId: string | null;
  latitude: number;
  longitude: number;
  /** Live entries at this location (that match the filters). */
  entries: number;
  /** Metres from the point asked for, when one was. */
  distance: number | null;
  modifiedAt: Date;
  changeSeq: string;
}

export interface EntryLocationQuery {
  filters: EntryFilters;
  /** Only locations with an entry changed after this sequence (live or deleted): the `since` sync. */
  sinceSeq?: string;
  /** Also locations whose entries are all deleted (always with `sinceSeq`: a client must drop them). */
  includeDeleted: boolean;
  /** Nearest first, and within `radius` metres of it when given. */
  near?: { latitude: number; longitude: number; radius?: number };
  /** One location by its key. */
  key?: string;
  offset: number;
  limit: number;
}

const KEY_SQL = `coalesce(t.location->>'id', (t.location->>'latitude') || ',' || (t.location->>'longitude'))`;

/** Great-circle distance in metres (haversine, mean Earth radius): ordering and a radius need no more. */
const distanceSql = (lat: string, lng: string) =>
  `2 * 6371008.8 * asin(sqrt(power(sin(radians((l.latitude - ${lat}) / 2)), 2)
     + cos(radians(${lat})) * cos(radians(l.latitude)) * power(sin(radians((l.longitude - ${lng}) / 2)), 2)))`;

/**
 * `/entries/locations`: the user's entry locations with how many live entries each has, in one statement over
 * the entries that carry a location (a partial index keeps that to the located ones). Entries filters apply
 * to the entries counted. Returns a page, the total, and the watermark read before it (the next `since`).
 */
export async function listEntryLocations(
  read: UserRead,
  query: EntryLocationQuery,
): Promise<{ items: LocationGroup[]; total: number; watermark: string }> {
  const userId = read.userId;
  const source = handleOf(read);
  const watermark = await readWatermark(source, userId);
  const params = new SqlParams();
  const where = [
    `t.user_id = ${params.add(userId)}`,
    't.location IS NOT NULL',
    ...buildEntryFilters(query.filters).map((filter) => `(${filter(params.add)})`),
  ];
  if (query.key !== undefined) where.push(`${KEY_SQL} = ${params.add(query.key)}`);
  const having: string[] = [];
  if (query.sinceSeq !== undefined) having.push(`max(t.change_seq) > ${params.add(query.sinceSeq)}::bigint`);
  if (!query.includeDeleted && query.sinceSeq === undefined)
    having.push('count(*) FILTER (WHERE NOT t.deleted) > 0');
  const near = query.near;
  const distance = near ? distanceSql(params.add(near.latitude), params.add(near.longitude)) : 'NULL::float8';
  const outer = near?.radius !== undefined ? `WHERE ${distance} <= ${params.add(near.radius)}` : '';
  const order = near ? 'distance, l.key' : 'l.entries DESC, l.key';
  const rows: Array<Record<string, unknown>> = await source.query(
    `SELECT l.*, ${distance} AS distance, count(*) OVER () AS total FROM (
       SELECT ${KEY_SQL} AS key,
         -- The newest live entry's location speaks for the place (a venue id may be added later).
         (array_agg(t.location ORDER BY t.deleted, t.modified_at DESC))[1] AS location,
         ((array_agg(t.location ORDER BY t.deleted, t.modified_at DESC))[1]->>'latitude')::float8 AS latitude,
         ((array_agg(t.location ORDER BY t.deleted, t.modified_at DESC))[1]->>'longitude')::float8 AS longitude,
         count(*) FILTER (WHERE NOT t.deleted)::int AS entries,
         max(t.change_seq)::text AS change_seq, max(t.modified_at) AS modified_at
       FROM entries t WHERE ${where.join(' AND ')}
       GROUP BY 1 ${having.length ? `HAVING ${having.join(' AND ')}` : ''}) l
     ${outer}
     ORDER BY ${order} LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`,
    params.values,
  );
  const total = rows.length ? Number(rows[0].total) : query.offset > 0 ? await countAll() : 0;
  return {
    items: rows.map((row) => {
      const location = row.location as { id?: string; venue_id?: string };
      return {
        key: String(row.key),
        id: location.id ?? null,
        venueId: location.venue_id ?? null,
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        entries: Number(row.entries),
        distance: row.distance === null ? null : Math.round(Number(row.distance)),
        modifiedAt: row.modified_at as Date,
        changeSeq: String(row.change_seq),
      };
    }),
    total,
    watermark,
  };

  /** A page past the end still reports the total (for Link's last page). */
  async function countAll(): Promise<number> {
    const all = await listEntryLocations(read, { ...query, offset: 0, limit: 1 });
    return all.total;
  }
}
