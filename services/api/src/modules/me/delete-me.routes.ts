import type { SubmissionOf } from '@pfs/resource-api';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { deleteMe } from './delete-me.use-case';

/** The body of `DELETE /me`: the current password, re-checked before anything is deleted. */
export const deleteMeSubmission = {
  type: 'object',
  required: ['password'],
  properties: { password: { type: 'string', minLength: 1, maxLength: 1024 } },
  additionalProperties: false,
} as const;
type DeleteMeBody = SubmissionOf<typeof deleteMeSubmission>;

/** `DELETE /me` (user:rw): deletes the account and everything of it (docs/auth.md, "Deleting an account"). */
export function deleteMeHandler(deps: ApiDependencies): ApiHandler {
  const readBody = deps.resourceApi.schemas.submissionReader<DeleteMeBody>(deleteMeSubmission, {
    password: 'must be the current password (a non-empty string)',
  });
  return async (ctx, req, res) => {
    const { password } = readBody(req.body);
    await deleteMe(
      {
        repos: { tokens: deps.repos.tokens, credentials: deps.repos.credentials },
        redis: deps.redis,
        accountDeletions: deps.accountDeletions,
      },
      ctx.userId,
      password,
    );
    res.status(204).end();
  };
}
