import { ALL_SCOPES, formatScope, generateToken, hashToken, parseScope } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import { z } from 'zod';
import type { AuthRepositories } from '../auth-repositories';

/** Schemes a browser runs or reads locally: a redirect there would act in the page, not reach an app. */
const FORBIDDEN_SCHEMES = ['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:'];

const redirectUriRule = z
  .string()
  .url('must be an absolute URI')
  .refine((uri) => !uri.includes('#'), 'must not contain a fragment')
  .refine(
    (uri) => !FORBIDDEN_SCHEMES.includes(URL.canParse(uri) ? new URL(uri).protocol : ''),
    `must not use the ${FORBIDDEN_SCHEMES.join(' ')} schemes`,
  );

export const NewClientInputSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  redirectUri: redirectUriRule,
  scope: z
    .string()
    .refine((scope) => parseScope(scope).length > 0, 'must name at least one scope')
    .refine((scope) => parseScope(scope).every((s) => ALL_SCOPES.includes(s)), {
      message: `must be space-separated scopes among ${ALL_SCOPES.join(', ')}`,
    }),
  implicit: z.boolean().default(false),
});

export type NewClientInput = z.input<typeof NewClientInputSchema>;

export interface CreatedClient {
  client_id: string;
  /** Shown once; only its hash is stored. */
  client_secret: string;
  redirect_uri: string;
  scope: string;
}

/** Registers an application: it gets a client id, a secret, its default redirect URI and default scope. */
export async function createClient(
  deps: { repos: Pick<AuthRepositories, 'clients'> },
  input: NewClientInput,
  /** The developer who registered it on the developer page; none for the operator's CLI. */
  ownerUserId?: string,
): Promise<CreatedClient> {
  const parsed = NewClientInputSchema.safeParse(input);
  if (!parsed.success) {
    throw inputError(
      parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), error: issue.message })),
    );
  }
  const data = parsed.data;
  const clientId = generateToken(12);
  const clientSecret = generateToken(32);
  const scope = formatScope(parseScope(data.scope));
  await deps.repos.clients.create({
    id: clientId,
    name: data.name,
    secretHash: hashToken(clientSecret),
    redirectUri: data.redirectUri,
    scope,
    grants: ['authorization_code', 'refresh_token', ...(data.implicit ? ['implicit'] : [])],
    ownerUserId: ownerUserId ?? null,
  });
  return { client_id: clientId, client_secret: clientSecret, redirect_uri: data.redirectUri, scope };
}
