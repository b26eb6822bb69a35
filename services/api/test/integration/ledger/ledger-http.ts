import type { Express } from 'express';
import request from 'supertest';
import type { TestUser } from '../../support/api-test-app';

/** Small request helpers for the ledger's HTTP tests. */
export const idFromLocation = (location: string) => location.split('/').pop()!;

export async function postAccount(
  app: Express,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<string> {
  const answer = await request(app).post('/accounts').set('Authorization', user.auth).send(body).expect(201);
  return idFromLocation(answer.headers.location);
}

export async function postEntry(
  app: Express,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<string> {
  const answer = await request(app).post('/entries').set('Authorization', user.auth).send(body);
  if (answer.status !== 201)
    throw new Error(`POST /entries ${answer.status}: ${JSON.stringify(answer.body)}`);
  return idFromLocation(answer.headers.location);
}

export async function getJson(app: Express, user: TestUser, path: string) {
  return request(app).get(path).set('Authorization', user.auth);
}

export async function balanceOf(app: Express, user: TestUser, accountId: string): Promise<number> {
  const answer = await request(app).get(`/accounts/${accountId}`).set('Authorization', user.auth).expect(200);
  return answer.body.balance;
}
