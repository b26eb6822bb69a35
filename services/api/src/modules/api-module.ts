import type { ResourceSchema } from '@pfs/resource-api';
import type { Router } from 'express';
import type { ApiDependencies } from '../dependencies';

/**
 * One resource area of the API. The app registers `schemas` (served at /schema/<name>, used to validate
 * writes, listed in /openapi.json) and mounts `routes` behind authentication, rate limiting, content
 * negotiation and the JSON body parser. Add yours to `modules/index.ts` (one import, one array entry).
 */
export interface ApiModule {
  name: string;
  schemas?: ResourceSchema[];
  routes(deps: ApiDependencies): Router;
  /**
   * Routes whose bodies are not JSON (file uploads and downloads): mounted after authentication and rate
   * limiting but before Accept negotiation, the 415 check and the JSON parser. They check scopes, content
   * types and sizes themselves (a JSON response calls negotiateMediaType first).
   */
  fileRoutes?(deps: ApiDependencies): Router;
}
