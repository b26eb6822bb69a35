import type { OperationDeclaration, PublishedResource } from './operation';
import type { HyperLink, ResourceSchema } from './resource-schema';

/** The link an operation publishes: the operation without what only the server needs. */
export function linkOf(operation: OperationDeclaration & { handler?: unknown }): HyperLink {
  const {
    resource: _resource,
    route: _route,
    files: _files,
    before: _before,
    handler: _handler,
    ...link
  } = operation;
  return link;
}

function linksOf(resource: PublishedResource, operations: readonly OperationDeclaration[]): HyperLink[] {
  const name = resource.schema.name;
  const byRel = new Map<string, OperationDeclaration>();
  for (const operation of operations) {
    if (operation.resource !== name) continue;
    if (!resource.rels.includes(operation.rel)) {
      throw new Error(
        `${operation.method} ${operation.href}: ${name} does not list the relation ${operation.rel}`,
      );
    }
    if (byRel.has(operation.rel))
      throw new Error(`two operations serve the relation ${operation.rel} of ${name}`);
    byRel.set(operation.rel, operation);
  }
  return resource.rels.map((rel) => {
    const operation = byRel.get(rel);
    if (!operation) throw new Error(`no operation serves the relation ${rel} of ${name}`);
    return linkOf(operation);
  });
}

/**
 * The resources as their documents publish them (`/schema/<name>`, `/openapi.json`): each schema with the
 * links of the operations naming it, in the order the owner lists its relations, and the resources in
 * `order`. Neither depends on the order modules come in, so no module's place changes an answer.
 */
export function publishResources(
  resources: readonly PublishedResource[],
  operations: readonly OperationDeclaration[],
  order: readonly string[],
): ResourceSchema[] {
  const published = new Map<string, ResourceSchema>();
  for (const resource of resources) {
    const schema = { ...resource.schema, links: linksOf(resource, operations) };
    if (!order.includes(schema.name))
      throw new Error(`the resource ${schema.name} has no place in the order`);
    if (published.has(schema.name)) throw new Error(`two resources are named ${schema.name}`);
    published.set(schema.name, schema);
  }
  for (const operation of operations) {
    if (!published.has(operation.resource)) {
      throw new Error(`${operation.method} ${operation.href}: no module publishes ${operation.resource}`);
    }
  }
  return order.flatMap((name) => published.get(name) ?? []);
}
