/**
 * Whether the webhook `w` may still be delivered: the application it belongs to must still be let in by its
 * user. An OAuth client's webhook lives while the user holds a live grant to that client (auth's revoke,
 * "revoke access" on the sessions page, `token:revoke-all` and account closure all revoke grants, and a
 * deleted client takes its grants with it); a personal-token webhook (`app` = `personal`) lives while the
 * user holds a live personal token (webhooks are per application, and every personal token is one
 * application). A webhook that is not live is kept but inert: nothing is delivered to it, and it comes back
 * to life with a new grant (docs/webhooks.md, "When the application loses access").
 *
 * Why the auth tables are read here rather than the webhook deleted by each revocation: the revocations live
 * in four places (auth routes, pages, the CLI, account closure) and any new one would have to remember; one
 * condition where deliveries are picked cannot be forgotten. Both probes use the tables' (user_id, …) indexes.
 */
export const WEBHOOK_APP_IS_LIVE = `CASE WHEN w.app = 'personal'
  THEN EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.user_id = w.user_id AND t.kind = 'personal'
    AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now()))
  ELSE EXISTS (SELECT 1 FROM oauth_grants g WHERE g.user_id = w.user_id AND g.client_id = w.app
    AND g.revoked_at IS NULL) END`;
