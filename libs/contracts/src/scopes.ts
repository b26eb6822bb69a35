/** The data areas of the spec; each has a read scope (`:r`) and a read-and-write scope (`:rw`). */
export const SCOPE_AREAS = [
  'user',
  'entries',
  'budgets',
  'accounts',
  'images',
  'categories',
  'tags',
  'locations',
] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];

export const ALL_SCOPES: readonly string[] = SCOPE_AREAS.flatMap((area) => [`${area}:r`, `${area}:rw`]);

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.includes(scope);
}

/** Splits a space-separated scope string, dropping empty parts; order and duplicates are normalised. */
export function parseScope(scope: string | undefined | null): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(' ').filter(Boolean))].sort();
}

export function formatScope(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(' ');
}

/** Two scope strings grant the same thing when they hold the same set of scopes, whatever the order. */
export function sameScope(a: string | undefined, b: string | undefined): boolean {
  return formatScope(parseScope(a)) === formatScope(parseScope(b));
}

/** Human wording for the consent page. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'user:r': 'Read your profile',
  'user:rw': 'Read and change your profile',
  'entries:r': 'Read your entries, tags, repeats and exports',
  'entries:rw': 'Read and change your entries, tags, repeats and exports',
  'budgets:r': 'Read your budgets',
  'budgets:rw': 'Read and change your budgets',
  'accounts:r': 'Read your accounts',
  'accounts:rw': 'Read and change your accounts',
  'images:r': 'Read your images',
  'images:rw': 'Read and change your images',
  'categories:r': 'Read your categories',
  'categories:rw': 'Read and change your categories',
  'tags:r': 'Read your tags',
  'tags:rw': 'Read and change your tags',
  'locations:r': 'Read your locations',
  'locations:rw': 'Read and change your locations',
};
