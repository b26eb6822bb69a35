import type { SchemaRegistry } from './schema-registry';
import type { JsonSchema } from './resource-schema';

interface ListQuery {
  pattern: RegExp;
  names: Set<string>;
}

/**
 * The query parameters each GET route understands, as its hyper-schema link declares them (`hrefSchema`,
 * the same list /openapi.json publishes). The Link header carries these and no others, so a client's
 * stray parameter is never copied four times into a response header.
 */
export class ListQueryParams {
  private compiled?: ListQuery[];

  constructor(private readonly registry: SchemaRegistry) {}

  /** The declared parameter names of the GET route at `path`, or undefined when no link describes it. */
  of(path: string): ReadonlySet<string> | undefined {
    this.compiled ??= this.compile();
    let found: Set<string> | undefined;
    for (const entry of this.compiled) {
      if (!entry.pattern.test(path)) continue;
      found ??= new Set();
      entry.names.forEach((name) => found!.add(name));
    }
    return found;
  }

  private compile(): ListQuery[] {
    const entries: ListQuery[] = [];
    for (const schema of this.registry.list()) {
      for (const link of schema.links) {
        if (link.method !== 'GET') continue;
        const properties = (link.hrefSchema?.properties as Record<string, JsonSchema> | undefined) ?? {};
        const href = link.href.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
        entries.push({ pattern: new RegExp(`^${href}/?$`), names: new Set(Object.keys(properties)) });
      }
    }
    return entries;
  }
}
