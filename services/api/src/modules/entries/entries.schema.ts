import type { ResourceDefinition } from '@pfs/resource-api';
import { entryProperties, entryRequired } from './entry-body.schema';

export const entriesSchema: ResourceDefinition = {
  name: 'entries',
  title: 'Entry',
  description:
    'An expense (amount < 0) or income (amount > 0) in an account. Amounts are exact decimals rounded half-even to the currency precision. An entry with `transaction` is a transfer: the server keeps its companion entry in the other account in step.',
  properties: entryProperties,
  createRequired: [...entryRequired],
  updateRequired: [...entryRequired],
};
