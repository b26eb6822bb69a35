/**
 * `extra` stays private to the user *and the application* (spec, "Common field rules"). The application is
 * the `app` of the context a repository is given (UserRead / UserChange, opened from the API's
 * RequestContext); work outside any application (the worker, the CLI) sees and writes `extra` as stored.
 */

/** Stored `extra` is `{"__apps": {"<app>": <that app's extra>}}`; other shapes are system-written. */
export const APPS_KEY = '__apps';

/** The application's `extra` from the stored column (unchanged outside an application). */
export function extraForApp(stored: unknown, app: string | undefined): unknown {
  if (app === undefined || stored === null || typeof stored !== 'object' || !(APPS_KEY in stored)) {
    return stored ?? null;
  }
  return (stored as Record<string, Record<string, unknown>>)[APPS_KEY][app] ?? null;
}

/** SQL for the new stored `extra` of an insert, given the app's value as a jsonb parameter. */
export function insertExtraSql(value: string, app: string): string {
  return `CASE WHEN ${value}::jsonb IS NULL THEN NULL ELSE jsonb_build_object('${APPS_KEY}', jsonb_build_object(${app}::text, ${value}::jsonb)) END`;
}

/** SQL for the new stored `extra` of an update: the app's entry replaced (or removed), the others kept. */
export function updateExtraSql(value: string, app: string): string {
  const apps = `coalesce(CASE WHEN t.extra ? '${APPS_KEY}' THEN t.extra -> '${APPS_KEY}' END, '{}'::jsonb)`;
  return `nullif(jsonb_build_object('${APPS_KEY}', CASE WHEN ${value}::jsonb IS NULL THEN ${apps} - ${app}::text
    ELSE ${apps} || jsonb_build_object(${app}::text, ${value}::jsonb) END), '{"${APPS_KEY}": {}}'::jsonb)`;
}
