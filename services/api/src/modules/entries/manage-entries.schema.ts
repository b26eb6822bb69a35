import { inputError } from '@pfs/errors';
import type { SchemaRegistry, SubmissionOf } from '@pfs/resource-api';
import { id } from './entry-body.schema';
import type { ManageRequest } from './manage-entries.use-case';

/** Id lists of POST /entries/manage: at most 500 ids each. */
const ids = { type: 'array', maxItems: 500, items: id } as const;

/** POST /entries/manage's body, published by its link and validated by the same object. */
export const manageSubmission = {
  type: 'object',
  required: ['with'],
  properties: {
    with: {
      type: 'object',
      properties: { tags: ids, accounts: ids, categories: ids, description: { type: 'string' } },
    },
    set: { type: 'object', properties: { tags: ids, account: id, category: id } },
    add: { type: 'object', properties: { tags: ids } },
    remove: { type: 'object', properties: { tags: ids } },
  },
} as const;
type ManageBody = SubmissionOf<typeof manageSubmission>;

/** The cross-member rules: `with` names at least one criterion; one of set, add or remove is given. */
export function assertManageRequest(body: ManageBody): void {
  const { tags, accounts, categories, description } = body.with;
  if (!tags && !accounts && !categories && !description) {
    throw inputError([{ field: 'with', error: 'must name tags, accounts, categories or description' }]);
  }
  if (!body.set && !body.add?.tags && !body.remove?.tags) {
    throw inputError([{ field: 'set', error: 'one of set, add or remove is required' }]);
  }
}

/** Reads POST /entries/manage: the published schema, then assertManageRequest. */
export function manageRequestReader(schemas: SchemaRegistry): (body: unknown) => ManageRequest {
  const read = schemas.bodyReader<ManageBody>(manageSubmission);
  return (input) => {
    const body = read(input);
    assertManageRequest(body);
    const copy = (list?: readonly string[]) => (list ? [...list] : undefined);
    const { tags, accounts, categories, description } = body.with;
    return {
      with: { tags: copy(tags), accounts: copy(accounts), categories: copy(categories), description },
      set: body.set && { ...body.set, tags: copy(body.set.tags) },
      add: body.add && { tags: copy(body.add.tags) },
      remove: body.remove && { tags: copy(body.remove.tags) },
    };
  };
}
