import { hashToken } from '@pfs/contracts';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import type { ClientRepository, OAuthClientRecord } from '../repositories/client.repository';

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1), or undefined. */
export function readBasicCredentials(req: Request): { id: string; secret: string } | undefined {
  const match = /^basic ([A-Za-z0-9+/=]+)$/i.exec(req.get('authorization') ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0) return undefined;
  return { id: decoded.slice(0, separator), secret: decoded.slice(separator + 1) };
}

/** Compares the secret's hash with the stored one in constant time. */
export function isClientSecret(client: OAuthClientRecord, secret: string): boolean {
  const given = Buffer.from(hashToken(secret), 'utf8');
  const stored = Buffer.from(client.secretHash, 'utf8');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The client named by valid Basic credentials, or undefined. */
export async function findBasicAuthenticatedClient(
  clients: ClientRepository,
  req: Request,
): Promise<OAuthClientRecord | undefined> {
  const credentials = readBasicCredentials(req);
  const client = credentials ? await clients.findById(credentials.id) : undefined;
  return client && isClientSecret(client, credentials!.secret) ? client : undefined;
}
