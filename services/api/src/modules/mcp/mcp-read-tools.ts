import {
  compactAccount,
  compactBudget,
  compactEntry,
  compactLabel,
  compactPage,
  compactSums,
} from './mcp-compact';
import { type Args, listQuerySchema, type McpTool, queryOf } from './mcp-tool';

const pageOf = (args: Args) => Number(args.page ?? 0) || 0;

function listTool(
  spec: Pick<McpTool, 'name' | 'title' | 'description' | 'operation'> & {
    key: string;
    compact: (row: Record<string, unknown>) => Record<string, unknown>;
    omit?: string[];
  },
): McpTool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    operation: spec.operation,
    inputSchema: (operation) => listQuerySchema(operation, spec.omit),
    toInput: (args) => ({ query: queryOf(args, { perPage: true }) }),
    compact: (answer, args) => compactPage(answer, spec.key, spec.compact, pageOf(args)),
    readOnly: true,
  };
}

export const readTools: McpTool[] = [
  listTool({
    name: 'list_entries',
    title: 'Search and list entries',
    description:
      'Expenses, incomes and transfers, newest first, with the filters of GET /entries: from/to (YYYY-MM-DD), type, accounts, categories, tags (comma-separated ids; the !-prefixed ones exclude), search (text in the description), page and per_page. Amounts are negative for expenses.',
    operation: 'GET /entries',
    key: 'entries',
    compact: compactEntry,
  }),
  listTool({
    name: 'list_accounts',
    title: 'List accounts with balances',
    description: 'The accounts with their current balance in their own currency.',
    operation: 'GET /accounts',
    key: 'accounts',
    compact: compactAccount,
  }),
  listTool({
    name: 'list_budgets',
    title: 'List budgets and what is left',
    description:
      'Budgets for the period that holds from/to (default: today): limit, amount spent, planned, and left (limit − amount).',
    operation: 'GET /budgets',
    key: 'budgets',
    compact: compactBudget,
  }),
  listTool({
    name: 'list_categories',
    title: 'List categories',
    description: 'The categories (expense or income) entries are filed under.',
    operation: 'GET /categories',
    key: 'categories',
    compact: compactLabel,
  }),
  listTool({
    name: 'list_tags',
    title: 'List tags',
    description: 'The tags, each with its category when it has one.',
    operation: 'GET /tags',
    key: 'tags',
    compact: compactLabel,
  }),
  listTool({
    name: 'entry_sums',
    title: 'Sums of expenses and incomes per day, week or month',
    description:
      'Expense and income sums and counts per day, week or month (range) between from and to, converted to currency (ISO code), with the filters of list_entries.',
    operation: 'GET /entries/sums',
    key: 'sums',
    compact: compactSums,
  }),
  {
    name: 'period_summary',
    title: 'Summary of a period',
    description:
      'Totals, counts, medians and averages of expenses and incomes between from and to (YYYY-MM-DD) in the main currency (or currency), with the overall budget and what is left.',
    operation: 'GET /me/summary',
    inputSchema: (operation) => listQuerySchema(operation),
    toInput: (args) => ({ query: queryOf(args) }),
    compact: (answer) => answer.body,
    readOnly: true,
  },
];
