import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpServer, type RunningHttpServer } from '@pfs/http';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  issueToken,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { budgetBody, postBudget } from '../budgets/budgets-http';
import { postAccount } from '../ledger/ledger-http';

/** The /mcp endpoint driven by the official SDK's client over HTTP (tokens as the auth service writes them). */
describe('MCP tools over streamable HTTP', () => {
  let api: ApiTestApp;
  let server: RunningHttpServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    api = await startApiTestApp();
    server = await startHttpServer(api.app, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.stop();
    await api?.close();
  });

  async function connect(user: { token: string }): Promise<Client> {
    const client = new Client({ name: 'pfs-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${user.token}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** Calls a tool; its text content is the JSON answer. */
  async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text: string }>;
    return { isError: result.isError === true, body: JSON.parse(content[0].text) };
  }

  async function ledgerOf(user: TestUser) {
    const account = await postAccount(api.app, user, { name: 'Wallet', currency: { code: 'EUR' } });
    const category = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const tag = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    return { account, category, tag };
  }

  it('when the tools are listed, then each names its scope and a JSON schema of its arguments', async () => {
    const client = await connect(await createTestUser(api.deps));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_entries',
      'list_accounts',
      'list_budgets',
      'list_categories',
      'list_tags',
      'entry_sums',
      'period_summary',
      'create_entry',
      'update_entry',
      'delete_entry',
    ]);
    const listEntries = tools.find((tool) => tool.name === 'list_entries')!;
    expect(Object.keys(listEntries.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'from',
        'to',
        'accounts',
        '!accounts',
        'categories',
        'tags',
        'search',
        'page',
        'per_page',
      ]),
    );
    expect(listEntries.inputSchema.properties).not.toHaveProperty('since');
    expect(listEntries.description).toContain('entries:r');
    expect(listEntries.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === 'delete_entry')!.annotations?.destructiveHint).toBe(true);
  });

  it('when an assistant records and reads entries, then the data is real: balances, filters, pages, sums, summary, budgets', async () => {
    const user = await createTestUser(api.deps);
    const { account, category, tag } = await ledgerOf(user);
    await postBudget(
      api.app,
      user,
      budgetBody({
        categories: [category],
        limit: 300,
        recurrence: { frequency: 'monthly', interval: 1, start: '2025-05-01' },
      }),
    );
    const client = await connect(user);

    const created = await call(client, 'create_entry', {
      amount: -12.34,
      currency: 'EUR',
      date: '2025-05-09',
      desc: 'Lunch at the market',
      account,
      category,
      tags: [tag],
    });
    expect(created.isError).toBe(false);
    expect(created.body).toMatchObject({
      amount: -12.34,
      currency: 'EUR',
      date: '2025-05-09',
      account,
      category,
      tags: [tag],
    });
    // The REST API sees what the tool wrote.
    const rest = await request(api.app)
      .get(`/entries/${created.body.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(rest.body.desc).toBe('Lunch at the market');

    for (let day = 10; day < 22; day += 1) {
      const answer = await call(client, 'create_entry', {
        amount: -1,
        currency: 'EUR',
        date: `2025-05-${day}`,
        account,
        category,
      });
      expect(answer.isError).toBe(false);
    }

    const accounts = await call(client, 'list_accounts');
    expect(accounts.body.accounts).toEqual([
      expect.objectContaining({ id: account, name: 'Wallet', balance: -24.34, currency: 'EUR' }),
    ]);

    const searched = await call(client, 'list_entries', { search: 'market' });
    expect(searched.body).toMatchObject({
      total: 1,
      page: 0,
      entries: [expect.objectContaining({ id: created.body.id })],
    });
    expect(searched.body.entries[0]).not.toHaveProperty('extra');

    const ranged = await call(client, 'list_entries', { from: '2025-05-10', to: '2025-05-15', tags: tag });
    expect(ranged.body.total).toBe(0);
    const firstPage = await call(client, 'list_entries', { per_page: 10 });
    expect(firstPage.body).toMatchObject({ total: 13, page: 0, next_page: 1 });
    expect(firstPage.body.entries).toHaveLength(10);
    const lastPage = await call(client, 'list_entries', { per_page: 10, page: 1 });
    expect(lastPage.body.entries).toHaveLength(3);
    expect(lastPage.body).not.toHaveProperty('next_page');

    const sums = await call(client, 'entry_sums', {
      from: '2025-05-01',
      to: '2025-05-31',
      currency: 'EUR',
      range: 'month',
    });
    expect(sums.body.sums).toEqual([expect.objectContaining({ expenses: { sum: 24.34, count: 13 } })]);

    const summary = await call(client, 'period_summary', { from: '2025-05-01', to: '2025-05-31' });
    expect(summary.body.expenses).toMatchObject({ sum: 24.34, count: 13 });

    const budgets = await call(client, 'list_budgets', { from: '2025-05-01', to: '2025-05-31' });
    expect(budgets.body.budgets).toEqual([
      expect.objectContaining({ limit: 300, amount: 24.34, left: 275.66 }),
    ]);

    const categories = await call(client, 'list_categories');
    expect(categories.body.categories).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: category, name: 'Food' })]),
    );
    const tags = await call(client, 'list_tags');
    expect(tags.body.tags).toEqual([expect.objectContaining({ id: tag, name: 'lunch' })]);
  });

  it('when create_entry repeats an idempotency key, then one entry exists; the same key with other arguments is refused', async () => {
    const user = await createTestUser(api.deps);
    const { account, category } = await ledgerOf(user);
    const client = await connect(user);
    const args = {
      amount: -5,
      currency: 'EUR',
      date: '2025-06-01',
      account,
      category,
      idempotency_key: 'retry-1',
    };
    const first = await call(client, 'create_entry', args);
    const again = await call(client, 'create_entry', args);
    expect(again.body.id).toBe(first.body.id);
    const other = await call(client, 'create_entry', { ...args, amount: -6 });
    expect(other).toMatchObject({ isError: true, body: { status: 422 } });
    const listed = await call(client, 'list_entries');
    expect(listed.body.total).toBe(1);
  });

  it('when update_entry sends a stale modified for a field changed since, then a conflict and nothing changes; with the current one, the entry changes; delete_entry removes it', async () => {
    const user = await createTestUser(api.deps);
    const { account, category } = await ledgerOf(user);
    const client = await connect(user);
    const created = await call(client, 'create_entry', {
      amount: -5,
      currency: 'EUR',
      date: '2025-06-01',
      account,
      category,
    });
    const changed = await call(client, 'update_entry', {
      id: created.body.id,
      modified: created.body.modified,
      desc: 'Coffee',
    });
    expect(changed).toMatchObject({ isError: false, body: { desc: 'Coffee', amount: -5 } });
    // A stale modified that changes the same field is a conflict (docs/conventions.md): the current entry comes back.
    const stale = await call(client, 'update_entry', {
      id: created.body.id,
      modified: created.body.modified,
      desc: 'Tea',
    });
    expect(stale).toMatchObject({ isError: true, body: { status: 409, current: { desc: 'Coffee' } } });
    const rest = await request(api.app)
      .get(`/entries/${created.body.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(rest.body.desc).toBe('Coffee');

    const invalid = await call(client, 'update_entry', {
      id: created.body.id,
      modified: changed.body.modified,
      date: 'yesterday',
    });
    expect(invalid).toMatchObject({
      isError: true,
      body: { status: 400, fields: [expect.objectContaining({ field: 'date' })] },
    });

    expect((await call(client, 'delete_entry', { id: created.body.id })).isError).toBe(false);
    await request(api.app).get(`/entries/${created.body.id}`).set('Authorization', user.auth).expect(404);
  });

  it('when the token lacks a scope, then the tool is refused naming it and nothing is written', async () => {
    const owner = await createTestUser(api.deps);
    const { account, category } = await ledgerOf(owner);
    const { token } = await issueToken(api.deps, owner.userId, 'entries:r');
    const client = await connect({ token });
    const write = await call(client, 'create_entry', {
      amount: -5,
      currency: 'EUR',
      date: '2025-06-01',
      account,
      category,
    });
    expect(write).toMatchObject({ isError: true, body: { status: 403, error_id: 'error.auth.scope' } });
    expect(write.body.description).toContain('entries:rw');
    const accounts = await call(client, 'list_accounts');
    expect(accounts).toMatchObject({ isError: true, body: { status: 403 } });
    expect(accounts.body.description).toContain('accounts:r');
    expect((await call(client, 'list_entries')).body.total).toBe(0);
  });

  it("when one user's assistant names another user's entry, then it is not found and the other user's data is untouched", async () => {
    const alice = await createTestUser(api.deps);
    const bob = await createTestUser(api.deps);
    const aliceLedger = await ledgerOf(alice);
    const aliceClient = await connect(alice);
    const bobClient = await connect(bob);
    const entry = await call(aliceClient, 'create_entry', {
      amount: -7,
      currency: 'EUR',
      date: '2025-06-02',
      account: aliceLedger.account,
      category: aliceLedger.category,
    });
    expect((await call(bobClient, 'list_entries')).body.total).toBe(0);
    expect((await call(bobClient, 'list_accounts')).body.accounts).toEqual([]);
    const update = await call(bobClient, 'update_entry', {
      id: entry.body.id,
      modified: entry.body.modified,
      amount: -1,
    });
    expect(update).toMatchObject({ isError: true, body: { status: 404 } });
    const remove = await call(bobClient, 'delete_entry', { id: entry.body.id });
    expect(remove).toMatchObject({ isError: true, body: { status: 404 } });
    const posted = await call(bobClient, 'create_entry', {
      amount: -1,
      currency: 'EUR',
      date: '2025-06-02',
      account: aliceLedger.account,
      category: aliceLedger.category,
    });
    expect(posted.isError).toBe(true);
    expect((await call(aliceClient, 'list_entries')).body.entries).toEqual([
      expect.objectContaining({ id: entry.body.id, amount: -7 }),
    ]);
  });

  it('when /mcp is called without a token or with GET, then 401 naming the metadata, and 405', async () => {
    const answer = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('/.well-known/oauth-protected-resource/mcp');
    const user = await createTestUser(api.deps);
    const get = await fetch(`${server.url}/mcp`, {
      headers: { Authorization: user.auth, Accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const post = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: user.auth,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    // Stateless JSON answers: no session id, the rate-limit headers of every API answer.
    expect(post.status).toBe(200);
    expect(post.headers.get('mcp-session-id')).toBeNull();
    expect(post.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const listed = (await post.json()) as { result: { tools: unknown[] } };
    expect(listed.result.tools).toHaveLength(10);
  });

  it('when the calls of one client go to two API instances (own pools and Redis clients), then each answers without a session (no affinity needed)', async () => {
    const other = await startApiTestApp();
    const otherServer = await startHttpServer(other.app, { port: 0, host: '127.0.0.1' });
    try {
      const user = await createTestUser(api.deps);
      const { account, category } = await ledgerOf(user);
      const post = (base: string, message: object) =>
        fetch(`${base}/mcp`, {
          method: 'POST',
          headers: {
            Authorization: user.auth,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', ...message }),
        });
      const initialized = await post(server.url, {
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      expect(initialized.status).toBe(200);
      expect(initialized.headers.get('mcp-session-id')).toBeNull();
      const created = await post(otherServer.url, {
        id: 2,
        method: 'tools/call',
        params: {
          name: 'create_entry',
          arguments: { amount: -3, currency: 'EUR', date: '2025-06-03', account, category },
        },
      });
      const answer = (await created.json()) as { result: { content: Array<{ text: string }> } };
      const entry = JSON.parse(answer.result.content[0].text);
      const listed = await post(server.url, {
        id: 3,
        method: 'tools/call',
        params: { name: 'list_entries' },
      });
      const page = (await listed.json()) as { result: { content: Array<{ text: string }> } };
      expect(JSON.parse(page.result.content[0].text).entries).toEqual([
        expect.objectContaining({ id: entry.id, amount: -3 }),
      ]);
    } finally {
      await otherServer.stop();
      await other.close();
    }
  });
});
