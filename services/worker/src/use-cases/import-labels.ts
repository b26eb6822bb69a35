import type { NamedLabel, UserChange, UserRead } from '@pfs/resource-store';
import type { RowValues } from '../imports/row-values';
import type { ImportDependencies } from './import-dependencies';

type Kind = 'categories' | 'tags';

/**
 * Categories and tags by name, case-insensitively, as an import finds or creates them. A name seen once is
 * remembered for the rest of the import (one counter per distinct name, not per row).
 */
export class ImportLabels {
  private readonly known: Record<Kind, Map<string, string | null>> = {
    categories: new Map(),
    tags: new Map(),
  };
  /** Names created (or, in a dry run, that would be), in the file's spelling. */
  readonly created: Record<Kind, string[]> = { categories: [], tags: [] };

  constructor(private readonly deps: ImportDependencies) {}

  /** Looks up the names of a batch not seen before; `null` marks a name that does not exist yet. */
  async lookUp(read: UserRead, batch: RowValues[]): Promise<void> {
    const names: Record<Kind, string[]> = {
      categories: batch.flatMap(({ row }) => (row.category ? [row.category] : [])),
      tags: batch.flatMap(({ row }) => row.tags),
    };
    for (const kind of ['categories', 'tags'] as const) {
      const unseen = [...new Set(names[kind].map((name) => name.toLowerCase()))].filter(
        (name) => !this.known[kind].has(name),
      );
      const found = await this.deps.repos.imports.findLabelsByName(read, kind, unseen);
      for (const name of unseen) this.known[kind].set(name, pick(found, name));
    }
  }

  /** The id of each name of `row` (creating the missing ones when `change` is given), or a plan without. */
  async idsOf(values: RowValues, change?: UserChange): Promise<{ category?: string; tags: string[] }> {
    const type = values.row.amount.startsWith('-') ? 'expense' : 'income';
    const category = values.row.category
      ? await this.idOf('categories', values.row.category, type, change)
      : undefined;
    const tags: string[] = [];
    for (const tag of values.row.tags) {
      const id = await this.idOf('tags', tag, type, change);
      if (id && !tags.includes(id)) tags.push(id);
    }
    return { category, tags };
  }

  private async idOf(
    kind: Kind,
    name: string,
    type: string,
    change?: UserChange,
  ): Promise<string | undefined> {
    const lower = name.toLowerCase();
    const id = this.known[kind].get(lower);
    if (id) return id;
    if (id === null && !change) {
      this.known[kind].set(lower, '');
      this.created[kind].push(name);
      return undefined;
    }
    if (id === '' || !change) return undefined;
    const repo = kind === 'categories' ? this.deps.repos.categories : this.deps.repos.tags;
    const label = await repo.create(change, { name, type });
    change.onRollback(async () => void this.known[kind].set(lower, null));
    this.known[kind].set(lower, label.id);
    this.created[kind].push(name);
    return label.id;
  }
}

/** Of the labels with a name, the oldest one (several may share it; a category may be of either type). */
function pick(found: NamedLabel[], lowerName: string): string | null {
  return found.find((label) => label.name.toLowerCase() === lowerName)?.id ?? null;
}
