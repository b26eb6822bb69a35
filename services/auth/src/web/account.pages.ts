import type { TwoFactorSetup, TwoFactorStatus } from '../use-cases/manage-two-factor.use-case';
import type { PersonalTokenSummary } from '../use-cases/personal-tokens.use-case';
import { csrfField, dataTable, errorAlert, FORM_ERROR_ID, inputField } from './fields';
import { html, RawHtml } from './html';
import { renderPage } from './layout';
import { verifyFirstNotice } from './account-mail.pages';
import { PasswordFormErrors, passwordSection, sessionsSection } from './account-security.pages';
import type { ListedSession } from './session.store';
import type { ConnectedApp } from '@pfs/resource-store';

const when = (date: Date | null) =>
  date ? date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : 'never';

/** A one-button form posting to `action` with the CSRF token. */
function postButton(action: string, csrfToken: string, label: string, accessibleName: string) {
  return html`<form method="post" action="${action}" class="inline">
    ${csrfField(csrfToken)}
    <button type="submit" class="secondary" aria-label="${accessibleName}">${label}</button>
  </form>`;
}

export function accountNav(csrfToken: string, email: string) {
  return html`<nav aria-label="Account">
    <span>Signed in as <strong>${email}</strong></span>
    <a href="/account">Account</a>
    <a href="/developer">Developer</a>
    ${postButton('/logout', csrfToken, 'Sign out', 'Sign out')}
  </nav>`;
}

/** Which field the page's error is about (tied to it with aria-describedby). */
const describedIf = (errorField: string | undefined, id: string) =>
  errorField === id ? FORM_ERROR_ID : undefined;

function twoFactorSection(csrfToken: string, status: TwoFactorStatus, errorField?: string) {
  if (!status.enabled) {
    return html`<p>Two-factor authentication is <strong>off</strong>.</p>
      ${postButton('/account/two-factor/setup', csrfToken, 'Set up two-factor', 'Set up two-factor')}`;
  }
  return html`<p>
      Two-factor authentication is <strong>on</strong>. Recovery codes left: ${status.recoveryCodesLeft}.
    </p>
    <form method="post" action="/account/two-factor/disable">
      ${csrfField(csrfToken)}
      ${inputField({
        id: 'disable_password',
        name: 'password',
        label: 'Password (to turn two-factor off)',
        type: 'password',
        autocomplete: 'current-password',
        required: true,
        describedBy: describedIf(errorField, 'disable_password'),
      })}
      <button type="submit" class="secondary">Turn off two-factor</button>
    </form>`;
}

function tokensSection(csrfToken: string, tokens: PersonalTokenSummary[], errorField?: string) {
  const rows = tokens.map(
    (token) =>
      html`<tr>
        <td>${token.name}</td>
        <td>${when(token.createdAt)}</td>
        <td>${when(token.lastUsedAt)}</td>
        <td>
          ${postButton(`/account/tokens/${token.id}/revoke`, csrfToken, 'Revoke', `Revoke token ${token.name}`)}
        </td>
      </tr>`,
  );
  return html`${
      tokens.length ? dataTable(['Name', 'Created', 'Last used', ''], rows) : html`<p>No personal tokens.</p>`
    }
    <form method="post" action="/account/tokens">
      ${csrfField(csrfToken)}
      ${inputField({
        id: 'token_name',
        name: 'name',
        label: 'New token name',
        type: 'text',
        maxlength: 100,
        required: true,
        describedBy: describedIf(errorField, 'token_name'),
      })}
      <button type="submit">Create token</button>
    </form>`;
}

function appsSection(csrfToken: string, apps: ConnectedApp[]) {
  if (!apps.length) return html`<p>No applications have access to your account.</p>`;
  const rows = apps.map(
    (app) =>
      html`<tr>
        <td>${app.clientName}</td>
        <td><code>${app.scope}</code></td>
        <td>${when(app.firstGrantedAt)}</td>
        <td>
          ${postButton(`/account/apps/${encodeURIComponent(app.clientId)}/revoke`, csrfToken, 'Revoke access', `Revoke access of ${app.clientName}`)}
        </td>
      </tr>`,
  );
  return dataTable(['Application', 'Access', 'Since', ''], rows);
}

export function accountPage(options: {
  csrfToken: string;
  email: string;
  verified: boolean;
  twoFactor: TwoFactorStatus;
  tokens: PersonalTokenSummary[];
  apps: ConnectedApp[];
  sessions: ListedSession[];
  currentSessionId: string | undefined;
  passwordErrors?: PasswordFormErrors;
  /** The field `error` is about, when it is about one. */
  errorField?: string;
  notice?: RawHtml;
  error?: string;
}): string {
  return renderPage(
    'Account settings',
    html`${accountNav(options.csrfToken, options.email)}
      <h1>Account settings</h1>
      ${options.verified ? '' : verifyFirstNotice(options)}
      ${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
      ${errorAlert(options.error)} ${passwordSection(options.csrfToken, options.passwordErrors)}
      <section aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading">Two-factor authentication</h2>
        ${twoFactorSection(options.csrfToken, options.twoFactor, options.errorField)}
      </section>
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Personal tokens</h2>
        <p>Use a personal token as the HTTP Basic user name (empty password) or as a Bearer token.</p>
        ${tokensSection(options.csrfToken, options.tokens, options.errorField)}
      </section>
      <section aria-labelledby="apps-heading">
        <h2 id="apps-heading">Connected applications</h2>
        ${appsSection(options.csrfToken, options.apps)}
      </section>
      ${sessionsSection(options.csrfToken, options.sessions, options.currentSessionId)}
      <section aria-labelledby="delete-section-heading">
        <h2 id="delete-section-heading">Delete account</h2>
        <p>Take your data with you, then delete the account and everything of it for good.</p>
        <p><a href="/account/delete">Delete your account…</a></p>
      </section>`,
    { wide: true },
  );
}

export function twoFactorSetupPage(options: {
  csrfToken: string;
  email: string;
  setup: Pick<TwoFactorSetup, 'qrCode' | 'secret'>;
  error?: string;
}): string {
  return renderPage(
    'Set up two-factor',
    html`${accountNav(options.csrfToken, options.email)}
      <h1>Set up two-factor authentication</h1>
      ${errorAlert(options.error)}
      <p>Scan this QR code with your authenticator app, or type the secret in by hand.</p>
      <img src="${options.setup.qrCode}" alt="QR code of your two-factor secret" width="200" height="200" />
      <p>Secret: <code class="secret" id="otp-secret">${options.setup.secret}</code></p>
      <form method="post" action="/account/two-factor/enable">
        ${csrfField(options.csrfToken)}
        ${inputField({
          id: 'code',
          name: 'code',
          label: 'Code from the app',
          type: 'text',
          inputmode: 'numeric',
          autocomplete: 'one-time-code',
          pattern: '[0-9]{6}',
          required: true,
          describedBy: options.error ? FORM_ERROR_ID : undefined,
        })}
        <button type="submit">Turn on two-factor</button>
      </form>`,
    { wide: true },
  );
}

export function recoveryCodesNotice(codes: string[]): RawHtml {
  return html`<p>
      Two-factor is on. Keep these recovery codes somewhere safe; each works once if you lose your device, and
      they are shown only now:
    </p>
    <ul id="recovery-codes">
      ${codes.map((code) => html`<li><code>${code}</code></li>`)}
    </ul>`;
}

export function newTokenNotice(name: string, token: string): RawHtml {
  return html`<p>Personal token <strong>${name}</strong> created. Copy it now; it is shown only once:</p>
    <p><code class="secret" id="new-token">${token}</code></p>`;
}
