import type { PublishedResource } from '@pfs/resource-api';
import type { ApiDependencies } from '../dependencies';
import type { ApiHandlers, ApiOperation, DeclaredOperation } from '../http/api-operation';

/**
 * One feature of the API, as data. `resources` are the schemas it publishes (served at /schema/<name>,
 * used to validate writes, listed in /openapi.json) with the relations each offers, in document order;
 * `operations` are what it serves: each one's method, path, scopes, published link and the name of its
 * handler. The app derives the router, the links, the 405 answers and the OpenAPI document from them, so
 * the order of modules changes nothing. Add yours to `modules/index.ts` and its resources to
 * `published.ts`.
 */
export interface ApiModule {
  name: string;
  resources?: PublishedResource[];
  operations?: readonly DeclaredOperation[];
  /** Builds the module's handlers once per app (repositories and use cases from the dependencies). */
  handlers?(deps: ApiDependencies): ApiHandlers;
  /**
   * Starts the module's own background work (a timer) once the process listens; what it returns stops
   * that work (waiting for a pass in progress) at shutdown, before the stores close.
   */
  start?(deps: ApiDependencies): ModuleWork;
}

/** What a module's `start` hook started. */
export interface ModuleWork {
  stop(): Promise<void>;
}

/**
 * Starts every module's background work (main.ts, after listen); the returned function stops it all, in the
 * reverse order.
 */
export function startModules(modules: readonly ApiModule[], deps: ApiDependencies): () => Promise<void> {
  const started = modules.flatMap((module) => (module.start ? [module.start(deps)] : []));
  return async () => {
    for (const work of started.reverse()) await work.stop();
  };
}

/** A module as written: its operations name only handlers it has. */
interface TypedModule<H extends ApiHandlers> extends Omit<ApiModule, 'operations' | 'handlers'> {
  operations: ReadonlyArray<DeclaredOperation<H>>;
  handlers(deps: ApiDependencies): H;
}

/**
 * Declares a module, the compiler checking that each operation names one of its handlers. The result is
 * an untyped `ApiModule` (the check is done here, where the handler names are known).
 */
export function apiModule<H extends ApiHandlers>(module: TypedModule<H>): ApiModule {
  return module as unknown as ApiModule;
}

/** The module's operations with their handlers bound, for an app over `deps`. */
export function operationsOf(module: ApiModule, deps: ApiDependencies): ApiOperation[] {
  if (!module.operations?.length) return [];
  if (!module.handlers) throw new Error(`the module ${module.name} declares operations but no handlers`);
  const handlers = module.handlers(deps);
  return module.operations.map((operation) => {
    const handler = handlers[operation.handler];
    if (!handler) throw new Error(`the module ${module.name} has no handler ${operation.handler}`);
    return { ...operation, handler };
  });
}
