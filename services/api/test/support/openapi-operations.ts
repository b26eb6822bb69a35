import type { Express } from 'express';
import request from 'supertest';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  [keyword: string]: unknown;
}

/** One operation of the published OpenAPI document, as the hostile-input and fuzz tests drive it. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The templated path, `/entries/{id}`. */
  template: string;
  query: Array<{ name: string; schema: JsonSchema }>;
  /** The JSON body schema, when the operation takes a JSON body. */
  body?: JsonSchema;
}

/** Every resource operation of `/openapi.json` (the MCP endpoint and its metadata, `x-pfs-protocol`, aside). */
export async function publishedOperations(app: Express): Promise<Operation[]> {
  const document = (await request(app).get('/openapi.json').expect(200)).body as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation['x-pfs-protocol']) continue;
      const parameters =
        (operation.parameters as Array<{ name: string; in: string; schema: JsonSchema }>) ?? [];
      const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> })
        ?.content;
      operations.push({
        method: method as Operation['method'],
        template,
        query: parameters.filter((parameter) => parameter.in === 'query'),
        body: content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** The path with every `{param}` replaced by `value` (already encoded for the URL). */
export const fillPath = (template: string, value: string) => template.replace(/\{\w+\}/g, value);

/** List routes: GETs of a collection (no path parameter). */
export const isListRoute = (operation: Operation) =>
  operation.method === 'get' && !operation.template.includes('{') && operation.query.length > 0;

/** Write routes: every POST, PUT and PATCH. */
export const isWriteRoute = (operation: Operation) => ['post', 'put', 'patch'].includes(operation.method);

/** Top-level string properties of a body schema. */
export function stringProperties(schema: JsonSchema | undefined): string[] {
  return Object.entries(schema?.properties ?? {})
    .filter(
      ([, property]) => property.type === 'string' || (property.type === undefined && !property.properties),
    )
    .map(([name]) => name);
}
