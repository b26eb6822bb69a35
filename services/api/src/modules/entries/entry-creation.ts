import { inputError } from '@pfs/errors';
import { parseCreateBody, type SchemaRegistry } from '@pfs/resource-api';
import { assertRepeatRules } from '../repeats/repeat-body';
import { MAX_BATCH } from './create-entries.use-case';
import type { EntryBody } from './entry-body.schema';
import { assertEntryRules, type EntryDraft, entryDraftOf } from './entry-draft';

/** A `POST /entries` body, checked: one entry or a batch (a JSON array), and the repeat rule of a single one. */
export interface EntryCreation {
  isBatch: boolean;
  drafts: EntryDraft[];
  /** The repeat rule of a single entry that asked for one (a batch may not). */
  repeat?: NonNullable<EntryBody['repeat']>;
}

/**
 * Reads and checks a `POST /entries` body against the published schema and the entry rules; a batch's
 * errors name `<index>.<field>`. Throws the 400.
 */
export async function readEntryCreation(schemas: SchemaRegistry, body: unknown): Promise<EntryCreation> {
  const isBatch = Array.isArray(body);
  const bodies: unknown[] = isBatch ? body : [body];
  if (!bodies.length || bodies.length > MAX_BATCH) {
    throw inputError([{ field: '(body)', error: `must hold 1–${MAX_BATCH} entries` }]);
  }
  const drafts = [];
  const repeats: EntryBody['repeat'][] = [];
  for (const [index, one] of bodies.entries()) {
    const prefix = isBatch ? `${index}.` : '';
    const entry = await parseCreateBody<EntryBody>(schemas, 'entries', one).catch((error) => {
      throw isBatch && error.fields
        ? inputError(
            error.fields.map((f: { field: string; error: string }) => ({
              ...f,
              field: prefix + f.field,
            })),
          )
        : error;
    });
    if (entry.repeat !== undefined && isBatch)
      throw inputError([{ field: `${prefix}repeat`, error: 'a repeating entry must be posted alone' }]);
    assertEntryRules(entry, prefix);
    drafts.push(entryDraftOf(entry));
    repeats.push(entry.repeat);
  }
  // A repeat of nothing but read-only members is still a rule asked for (and a 400), as it always was.
  const sent = (bodies[0] as { repeat?: unknown }).repeat;
  const repeat = !isBatch && sent !== undefined && sent !== null ? (repeats[0] ?? {}) : undefined;
  if (repeat) assertRepeatRules(repeat);
  return { isBatch, drafts, repeat };
}

/** Whether every entry of a creation is plain: no transfer, no repeat (createPlainEntries writes those). */
export function isPlainCreation(creation: EntryCreation): boolean {
  return !creation.repeat && creation.drafts.every((draft) => !draft.transaction);
}
