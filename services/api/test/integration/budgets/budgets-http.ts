import type { Express } from 'express';
import request from 'supertest';
import type { TestUser } from '../../support/api-test-app';
import { idFromLocation } from '../ledger/ledger-http';

/** A monthly regular budget in EUR from 2025-05-01 unless the body says otherwise. */
export function budgetBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Food',
    type: 'regular',
    limit: 300,
    currency: { code: 'EUR' },
    recurrence: { frequency: 'monthly', interval: 1, start: '2025-05-01' },
    ...overrides,
  };
}

export async function postBudget(
  app: Express,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<string> {
  const answer = await request(app).post('/budgets').set('Authorization', user.auth).send(body);
  if (answer.status !== 201)
    throw new Error(`POST /budgets ${answer.status}: ${JSON.stringify(answer.body)}`);
  return idFromLocation(answer.headers.location);
}

export function listBudgets(app: Express, user: TestUser, query: string) {
  return request(app).get(`/budgets?${query}`).set('Authorization', user.auth);
}

/** Posts entries in one request (all or nothing). */
export async function postEntries(app: Express, user: TestUser, entries: Array<Record<string, unknown>>) {
  const answer = await request(app).post('/entries').set('Authorization', user.auth).send(entries);
  if (answer.status !== 201)
    throw new Error(`POST /entries ${answer.status}: ${JSON.stringify(answer.body)}`);
}
