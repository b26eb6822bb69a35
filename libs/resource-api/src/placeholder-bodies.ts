import type { NextFunction, Request, Response } from 'express';
import { hrefPattern } from './method-not-allowed';
import { unsetPlaceholders } from './normalize-body';
import { JsonSchema, writableProperties } from './resource-schema';
import type { SchemaRegistry } from './schema-registry';

interface WriteRoute {
  method: string;
  pattern: RegExp;
  properties: Record<string, JsonSchema>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The body properties of every POST/PUT link; literal paths first, so `/tags/merge` wins over `/tags/{id}`. */
function compile(registry: SchemaRegistry): WriteRoute[] {
  const routes: WriteRoute[] = [];
  for (const schema of registry.list()) {
    for (const link of schema.links) {
      // A PATCH is a JSON merge patch: there `null` and every other value mean what RFC 7396 says.
      if (link.method !== 'POST' && link.method !== 'PUT') continue;
      const submission = link.submission;
      const properties =
        submission === 'create' || submission === 'update'
          ? writableProperties(schema, submission === 'update')
          : isPlainObject(submission) && isPlainObject(submission.properties)
            ? (submission.properties as Record<string, JsonSchema>)
            : undefined;
      if (properties) routes.push({ method: link.method, pattern: hrefPattern(link.href), properties });
    }
  }
  return routes.sort(
    (a, b) => Number(a.pattern.source.includes('[^/]+')) - Number(b.pattern.source.includes('[^/]+')),
  );
}

/**
 * The one tolerance step of every JSON write (docs/conventions.md "What PFS tolerates"): before any route
 * sees a POST or PUT body, the placeholders existing clients send (`""`, `0` and `"0"` the field refuses,
 * `null`, objects of nothing but placeholders, `"true"`/`"false"` for booleans) are unset or converted,
 * driven by the schema the route publishes. Undeclared members are left for the route to judge; a batch
 * (an array of objects) is normalised item by item.
 */
export function placeholderBodies(registry: SchemaRegistry) {
  let routes: WriteRoute[] | undefined;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' && req.method !== 'PUT') return next();
    routes ??= compile(registry);
    const route = routes.find((item) => item.method === req.method && item.pattern.test(req.path));
    if (route) {
      const body: unknown = req.body;
      if (isPlainObject(body)) req.body = unsetPlaceholders(body, route.properties);
      else if (Array.isArray(body))
        req.body = body.map((item) =>
          isPlainObject(item) ? unsetPlaceholders(item, route.properties) : item,
        );
    }
    next();
  };
}
