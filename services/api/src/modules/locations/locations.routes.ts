import { inputError, notFound } from '@pfs/errors';
import { formatModified } from '@pfs/resource-api';
import { listEntryLocations, type LocationGroup } from '@pfs/resource-store';
import { type Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { entryListQuery } from '../entries/entry-queries.schema';
import { readEntryFilters } from '../../http/entry-filters';

const ENDPOINT = 'entries/locations';
/** The farthest two points on Earth are about 20,000 km apart. */
const MAX_RADIUS_METRES = 20_040_000;

function readNumber(
  query: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw inputError([{ field: name, error: `must be a number from ${min} to ${max}` }]);
  }
  return value;
}

/** `latitude` + `longitude` (both or neither) order by distance; `radius` (metres) needs them. */
function readNear(req: Request) {
  const query = req.query as Record<string, unknown>;
  const latitude = readNumber(query, 'latitude', -90, 90);
  const longitude = readNumber(query, 'longitude', -180, 180);
  const radius = readNumber(query, 'radius', 1, MAX_RADIUS_METRES);
  if ((latitude === undefined) !== (longitude === undefined)) {
    const missing = latitude === undefined ? 'latitude' : 'longitude';
    throw inputError([
      { field: missing, error: 'is required with latitude and longitude (both or neither)' },
    ]);
  }
  if (radius !== undefined && latitude === undefined) {
    throw inputError([{ field: 'radius', error: 'needs latitude and longitude' }]);
  }
  return latitude === undefined ? undefined : { latitude, longitude: longitude!, radius };
}

function presentLocation(location: LocationGroup): Record<string, unknown> {
  return {
    id: location.key,
    ...(location.venueId ? { venue_id: location.venueId } : {}),
    latitude: location.latitude,
    longitude: location.longitude,
    counts: { entries: location.entries },
    ...(location.distance === null ? {} : { distance: location.distance }),
    modified: formatModified(location.modifiedAt),
    ...(location.entries === 0 ? { deleted: true } : {}),
  };
}

/**
 * `GET /entries/locations` and `/entries/locations/{id}` (scope locations:r; docs/ledger.md): the places of
 * the user's entries, derived from the entries' `location`, with pagination, `since` and the entry filters.
 */
export function locationsHandlers(deps: ApiDependencies) {
  const api = deps.resourceApi;

  const locations: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const params = api.parseList(req, { endpoint: ENDPOINT });
    const result = await listEntryLocations(deps.store.read(ctx), {
      filters: readEntryFilters(req),
      sinceSeq: params.sinceSeq,
      includeDeleted: params.includeDeleted,
      near: readNear(req),
      offset: params.offset,
      limit: params.perPage,
    });
    const watermark = params.pinnedWatermark ?? result.watermark;
    res.setHeader('Service-Modified', api.tokens.issueWatermark(userId, ENDPOINT, watermark));
    api.respond.sendOffsetPage(req, res, 'entries', {
      page: params.page,
      perPage: params.perPage,
      total: result.total,
      body: result.items.map(presentLocation),
    });
  };

  const location: ApiHandler = async (ctx, req, res) => {
    const key = String(req.params.id);
    if (key.length > 255) throw notFound('Location', key.slice(0, 40));
    const result = await listEntryLocations(deps.store.read(ctx), {
      filters: {},
      includeDeleted: false,
      key,
      offset: 0,
      limit: 1,
    });
    if (!result.items[0]) throw notFound('Location', key);
    api.respond.sendObject(req, res, 'entries', presentLocation(result.items[0]), result.items[0].modifiedAt);
  };
  return { locations, location };
}

export type LocationsHandlers = ReturnType<typeof locationsHandlers>;

const resource = 'entries';

export const locationsOperations: Array<DeclaredOperation<LocationsHandlers>> = [
  {
    resource,
    rel: 'locations',
    href: '/entries/locations',
    method: 'GET',
    title: 'The places of the entries (their `location`), with entry counts; nearest first around a point',
    hrefSchema: {
      type: 'object',
      properties: {
        ...(entryListQuery.properties as object),
        latitude: { type: 'number', minimum: -90, maximum: 90 },
        longitude: { type: 'number', minimum: -180, maximum: 180 },
        radius: { type: 'number', minimum: 1, description: 'Metres around latitude/longitude.' },
      },
    },
    target: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The location id, or latitude,longitude when it has none.' },
          venue_id: { type: 'string' },
          latitude: { type: 'number' },
          longitude: { type: 'number' },
          counts: { type: 'object', properties: { entries: { type: 'integer' } } },
          distance: { type: 'integer', description: 'Metres from latitude/longitude, when given.' },
          modified: { type: 'string' },
          deleted: { type: 'boolean' },
        },
      },
    },
    scope: 'locations:r',
    handler: 'locations',
  },
  {
    resource,
    rel: 'location',
    href: '/entries/locations/{id}',
    method: 'GET',
    title: 'One place of the entries',
    target: { type: 'object' },
    scope: 'locations:r',
    handler: 'location',
  },
];
