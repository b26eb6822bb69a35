import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { JsonSchema } from '@pfs/resource-api';
import { compactEntry } from './mcp-compact';
import type { Args, McpTool } from './mcp-tool';
import type { OperationAnswer } from './operation-call';

const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` };

/** The members of an entry a tool writes; the REST body (entries schema) validates them. */
const entryFields: Record<string, JsonSchema> = {
  amount: { type: 'number', description: 'Negative for an expense, positive for an income.' },
  currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR.' },
  date: { type: 'string', format: 'date', description: 'YYYY-MM-DD.' },
  desc: { type: 'string', maxLength: 3000, description: 'Description.' },
  account: { ...id, description: 'Account id (list_accounts).' },
  category: { ...id, description: 'Category id (list_categories).' },
  tags: { type: 'array', items: id, maxItems: 100, description: 'Tag ids (list_tags).' },
  transfer_account: { ...id, description: 'Makes the entry a transfer to or from this account.' },
};

const idempotencyKey = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Optional Idempotency-Key: a retry with the same key and arguments records nothing new and answers the first result.',
};

/** The REST body of an entry from a tool's arguments: currency `{code}`, a transfer's `transaction`. */
function entryBody(args: Args): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of ['amount', 'date', 'desc', 'account', 'category', 'tags'] as const) {
    if (args[name] !== undefined) body[name] = args[name];
  }
  if (args.currency !== undefined) body.currency = { code: args.currency };
  if (args.transfer_account !== undefined) body.transaction = { account: args.transfer_account };
  return body;
}

const entryAnswer = (answer: OperationAnswer) =>
  Array.isArray(answer.body)
    ? answer.body.map(compactEntry)
    : compactEntry(answer.body as Record<string, unknown>);

/** Recording, changing and deleting an entry: POST, PATCH and DELETE /entries (scope entries:rw). */
export const entryWriteTools: McpTool[] = [
  {
    name: 'create_entry',
    title: 'Record an entry',
    description:
      'Records an expense or income (or a transfer with transfer_account). Pass idempotency_key to make a retry safe.',
    operation: 'POST /entries',
    inputSchema: () => ({
      type: 'object',
      required: ['amount', 'currency', 'date', 'account', 'category'],
      properties: { ...entryFields, idempotency_key: idempotencyKey },
    }),
    toInput: (args) => ({
      body: entryBody(args),
      idempotencyKey: typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined,
    }),
    compact: entryAnswer,
    readOnly: false,
  },
  {
    name: 'update_entry',
    title: 'Change an entry',
    description:
      'Changes the given members of an entry. modified must be the value last read (list_entries): if the entry changed since, the answer is a conflict with the current entry, and nothing is written.',
    operation: 'PATCH /entries/{id}',
    inputSchema: () => ({
      type: 'object',
      required: ['id', 'modified'],
      properties: {
        id,
        modified: { type: 'string', description: 'The entry’s modified as last read.' },
        ...entryFields,
      },
    }),
    toInput: (args) => ({
      params: { id: String(args.id ?? '') },
      body: { ...entryBody(args), modified: args.modified },
    }),
    compact: entryAnswer,
    readOnly: false,
  },
  {
    name: 'delete_entry',
    title: 'Delete an entry',
    description: 'Deletes an entry (a transfer together with its other side).',
    operation: 'DELETE /entries/{id}',
    inputSchema: () => ({ type: 'object', required: ['id'], properties: { id } }),
    toInput: (args) => ({ params: { id: String(args.id ?? '') } }),
    compact: (_answer, args) => ({ deleted: args.id }),
    readOnly: false,
    destructive: true,
  },
];
