import type { ListedSession } from './session.store';
import { csrfField, dataTable, inputField } from './fields';
import { html } from './html';

const when = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** Field errors of the password form, shown under their fields. */
export interface PasswordFormErrors {
  current_password?: string;
  new_password?: string;
}

export function passwordSection(csrfToken: string, errors: PasswordFormErrors = {}) {
  return html`<section aria-labelledby="password-heading">
    <h2 id="password-heading">Password</h2>
    <form method="post" action="/account/password">
      ${csrfField(csrfToken)}
      ${inputField({
        id: 'current_password',
        name: 'current_password',
        label: 'Current password',
        type: 'password',
        autocomplete: 'current-password',
        required: true,
        error: errors.current_password,
      })}
      ${inputField({
        id: 'new_password',
        name: 'new_password',
        label: 'New password',
        type: 'password',
        autocomplete: 'new-password',
        required: true,
        minlength: 8,
        hint: 'At least 8 characters. Your other browsers will be signed out.',
        error: errors.new_password,
      })}
      <button type="submit">Change password</button>
    </form>
  </section>`;
}

function sessionLabel(session: ListedSession) {
  return session.userAgent ? session.userAgent : 'Unknown browser';
}

/** The sign-in sessions of the pages, this browser's marked, each with its own sign-out. */
export function sessionsSection(csrfToken: string, sessions: ListedSession[], currentId: string | undefined) {
  const rows = sessions.map(
    (session) =>
      html`<tr>
        <td>
          ${sessionLabel(session)}${session.id === currentId ? html` <strong>(this browser)</strong>` : ''}
        </td>
        <td>${when(session.createdAt)}</td>
        <td>
          ${
            session.id === currentId
              ? ''
              : html`<form method="post" action="/account/sessions/${session.id}/end" class="inline">
                  ${csrfField(csrfToken)}
                  <button
                    type="submit"
                    class="secondary"
                    aria-label="Sign out the session from ${when(session.createdAt)}"
                  >
                    Sign out
                  </button>
                </form>`
          }
        </td>
      </tr>`,
  );
  return html`<section aria-labelledby="sessions-heading">
    <h2 id="sessions-heading">Where you are signed in</h2>
    ${dataTable(['Browser', 'Signed in', ''], rows)}
    <form method="post" action="/account/sessions/end-all">
      ${csrfField(csrfToken)}
      <button type="submit" class="secondary">Sign out everywhere</button>
    </form>
    <p class="hint">
      Signs out every browser, this one too. Applications keep their access: revoke it below.
    </p>
  </section>`;
}
