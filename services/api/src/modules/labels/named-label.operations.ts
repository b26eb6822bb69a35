import type { SyncedRecord } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { DeclaredOperation } from '../../http/api-operation';
import type { NamedLabelSpec } from './named-label';
import { namedLabelHandlers, type NamedLabelHandlers } from './named-label.handlers';

/**
 * The operations of a named label resource (categories, tags): list, create, get, replace, patch,
 * delete and merge, declared statically, and the factory of their handlers. What really differs
 * between the resources (filters, type rules, a referenced category, merge targets) is in the spec.
 */
export function namedLabelOperations<T extends SyncedRecord, F>(spec: NamedLabelSpec<T, F>) {
  const { resource, singular } = spec;
  const collection = `/${resource}`;
  const item = `/${resource}/{id}`;
  const read = `${resource}:r`;
  const write = `${resource}:rw`;
  const operations: Array<DeclaredOperation<NamedLabelHandlers>> = [
    {
      resource,
      rel: 'list',
      href: collection,
      method: 'GET',
      title: `List ${resource}`,
      hrefSchema: spec.listQuery,
      target: 'list',
      scope: read,
      handler: 'list',
    },
    {
      resource,
      rel: 'create',
      href: collection,
      method: 'POST',
      title: `Create a ${singular}`,
      submission: 'create',
      target: 'object',
      scope: write,
      handler: 'create',
    },
    {
      resource,
      rel: 'self',
      href: item,
      method: 'GET',
      title: `Get a ${singular}`,
      target: 'object',
      scope: read,
      handler: 'get',
    },
    {
      resource,
      rel: 'update',
      href: item,
      method: 'PUT',
      title: `Replace a ${singular}`,
      submission: 'update',
      target: 'object',
      scope: write,
      handler: 'replace',
    },
    {
      resource,
      rel: 'patch',
      href: item,
      method: 'PATCH',
      title: 'Change some fields (JSON merge patch)',
      submission: 'patch',
      target: 'object',
      scope: write,
      handler: 'patch',
    },
    {
      resource,
      rel: 'delete',
      href: item,
      method: 'DELETE',
      title: `Delete a ${singular}`,
      scope: write,
      handler: 'remove',
    },
    {
      resource,
      rel: 'merge',
      href: `${collection}/merge`,
      method: 'POST',
      title: spec.mergeLink.title,
      submission: spec.mergeLink.submission,
      scope: write,
      handler: 'merge',
    },
  ];
  return { operations, handlers: (deps: ApiDependencies) => namedLabelHandlers(spec, deps) };
}
