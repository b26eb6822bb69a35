import { publishResources, type ResourceSchema } from '@pfs/resource-api';
import type { ApiModule } from './api-module';

/**
 * The order the published documents (`/`, `/schema`, `/openapi.json`, `/docs`) list the resources in.
 * It is stated here, not taken from the order modules are mounted in, so moving a module changes no answer.
 * A resource missing here fails at boot.
 */
export const PUBLISHED_ORDER: readonly string[] = [
  'rate-limit',
  'me',
  'categories',
  'tags',
  'accounts',
  'entries',
  'currencies',
  'exports',
  'notifications',
  'push',
  'images',
  'budgets',
  'webhooks',
  'webhook-deliveries',
  'imports',
];

/** Every resource as published, links included, from the modules' static declarations (no app needed). */
export function publishedSchemas(modules: readonly ApiModule[]): ResourceSchema[] {
  return publishResources(
    modules.flatMap((module) => module.resources ?? []),
    modules.flatMap((module) => module.operations ?? []),
    PUBLISHED_ORDER,
  );
}
