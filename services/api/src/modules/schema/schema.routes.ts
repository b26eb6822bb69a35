import { notFound } from '@pfs/errors';
import { mcpOpenApi } from '../mcp/mcp-openapi';
import { buildOpenApi, hyperSchemaDocument, isNotModified, strongEtag } from '@pfs/resource-api';
import { Request, Response, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { renderDocsPage } from './docs-page';

/** Sends a document computed once, with a strong ETag and 304 support. */
function sendStatic(req: Request, res: Response, type: string, body: string, etag: string): void {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'public, max-age=300');
  if (isNotModified(req, etag)) {
    res.status(304).end();
    return;
  }
  res.type(type).send(body);
}

/**
 * `GET /schema/<resource>` (JSON Hyper-Schema), `GET /openapi.json` (OpenAPI 3.1 derived from the same
 * schemas) and `GET /docs` (a readable page). Built lazily once, after every module has registered.
 */
export function schemaRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const baseUrl = deps.config.BASE_URL;
  let cache: { schemas: Map<string, string>; openapi: string; docs: string } | undefined;
  const documents = () => {
    if (cache) return cache;
    const all = deps.resourceApi.schemas.list();
    const schemas = new Map(
      all.map((schema) => [schema.name, JSON.stringify(hyperSchemaDocument(schema, baseUrl))]),
    );
    cache = {
      schemas,
      openapi: JSON.stringify(
        buildOpenApi(all, { baseUrl, authUrl: deps.config.AUTH_URL, protocol: mcpOpenApi() }),
      ),
      docs: renderDocsPage(all, baseUrl),
    };
    return cache;
  };
  // The API index, as Toshl's: links to every resource's collection, schema and the docs.
  router.get('/', (req, res) => {
    const index = JSON.stringify({
      links: [
        // Resources that can be read (a list or a self link); write-only ones such as push have no entry.
        ...deps.resourceApi.schemas.list().flatMap((schema) => {
          const read = schema.links.find((link) => link.rel === 'list' || link.rel === 'self');
          if (!read) return [];
          return [
            { rel: schema.name, href: `${baseUrl}${read.href}`, schema: `${baseUrl}/schema/${schema.name}` },
          ];
        }),
        { rel: 'openapi', href: `${baseUrl}/openapi.json` },
        { rel: 'docs', href: `${baseUrl}/docs` },
      ],
    });
    sendStatic(req, res, 'application/json', index, strongEtag(index));
  });
  router.get('/schema', (req, res) => {
    const index = JSON.stringify({
      links: [...documents().schemas.keys()].map((name) => ({
        rel: name,
        href: `${baseUrl}/schema/${name}`,
      })),
    });
    sendStatic(req, res, 'application/schema+json', index, strongEtag(index));
  });
  router.get('/schema/:name', (req, res) => {
    const body = documents().schemas.get(String(req.params.name));
    if (!body) throw notFound('Schema', String(req.params.name));
    sendStatic(req, res, 'application/schema+json', body, strongEtag(body));
  });
  router.get('/openapi.json', (req, res) => {
    const body = documents().openapi;
    sendStatic(req, res, 'application/json', body, strongEtag(body));
  });
  router.get('/docs', (req, res) => {
    const body = documents().docs;
    sendStatic(req, res, 'text/html; charset=utf-8', body, strongEtag(body));
  });
  return router;
}
