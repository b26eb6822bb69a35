import { SCOPE_DESCRIPTIONS } from '@pfs/contracts';
import { html } from './html';
import { accountFields, csrfField, errorAlert, FORM_ERROR_ID, inputField } from './fields';
import { renderPage } from './layout';
import { verifyFirstNotice } from './account-mail.pages';

export function signInPage(options: {
  csrfToken: string;
  returnTo: string;
  email?: string;
  error?: string;
  /** The server mails reset links (SMTP configured). */
  resetByMail?: boolean;
}): string {
  return renderPage(
    'Sign in',
    html`<h1>Sign in to PFS</h1>
      ${errorAlert(options.error)}
      <form method="post" action="/login">
        ${accountFields({ ...options, formError: !!options.error })}
        ${inputField({
          id: 'password',
          name: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'current-password',
          required: true,
          describedBy: options.error ? FORM_ERROR_ID : undefined,
        })}
        <button type="submit">Sign in</button>
      </form>
      ${options.resetByMail ? html`<p><a href="/forgot-password">Forgot your password?</a></p>` : ''}
      <p>
        New here? <a href="/signup?return_to=${encodeURIComponent(options.returnTo)}">Create an account</a>
      </p>`,
  );
}

export function consentPage(options: {
  csrfToken: string;
  /** Who is signed in, so someone on a shared computer notices another person's account. */
  email: string;
  /** Where "not you?" returns after signing out and in again. */
  returnTo: string;
  clientName: string;
  scopes: string[];
  /** Where the answer goes; shown so a user can notice a look-alike application. */
  redirectHost: string;
  /** A client registered dynamically (RFC 7591): nobody checked its name, so the page says so. */
  selfRegistered?: boolean;
  hiddenFields: Record<string, string>;
}): string {
  const hidden = Object.entries(options.hiddenFields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  return renderPage(
    'Allow access',
    html`<p class="signed-in-as">Signed in as <strong>${options.email}</strong></p>
      <form method="post" action="/logout" class="inline">
        ${csrfField(options.csrfToken)}
        <input type="hidden" name="return_to" value="${options.returnTo}" />
        <button type="submit" class="link">Not you? Sign in as someone else</button>
      </form>
      <h1>Allow ${options.clientName} to use your account?</h1>
      <p><strong>${options.clientName}</strong> asks for permission to:</p>
      <ul class="scopes">
        ${options.scopes.map((scope) => html`<li><code>${scope}</code>: ${SCOPE_DESCRIPTIONS[scope] ?? scope}</li>`)}
      </ul>
      <p>You will then return to <strong>${options.redirectHost}</strong>.</p>
      ${
        options.selfRegistered
          ? html`<p class="notice">
              This application registered itself: PFS has not checked its name. Allow it only if you are
              connecting it yourself, for example from your AI assistant.
            </p>`
          : ''
      }
      <form method="post" action="/oauth2/authorize">
        ${csrfField(options.csrfToken)} ${hidden}
        <button type="submit" name="decision" value="allow">Allow</button>
        <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
      </form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return renderPage(
    title,
    html`<h1>${title}</h1>
      <p class="error" role="alert">${message}</p>`,
  );
}

/** Sign-up's problems by field: each is shown under its field and listed at the top. */
export interface SignUpErrors {
  email?: string;
  first_name?: string;
  password?: string;
}

export function signUpPage(options: {
  csrfToken: string;
  returnTo: string;
  email?: string;
  firstName?: string;
  errors?: SignUpErrors;
}): string {
  const errors = options.errors ?? {};
  const listed = Object.values(errors).filter(Boolean);
  return renderPage(
    'Create an account',
    html`<h1>Create your PFS account</h1>
      ${
        listed.length
          ? html`<div class="error" role="alert">
              <p>The account was not created:</p>
              <ul>
                ${listed.map((error) => html`<li>${error}</li>`)}
              </ul>
            </div>`
          : ''
      }
      <form method="post" action="/signup">
        ${accountFields({ ...options, emailError: errors.email })}
        ${inputField({
          id: 'first_name',
          name: 'first_name',
          label: 'First name (optional)',
          type: 'text',
          autocomplete: 'given-name',
          value: options.firstName ?? '',
          error: errors.first_name,
        })}
        ${inputField({
          id: 'password',
          name: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'new-password',
          minlength: 8,
          required: true,
          hint: 'At least 8 characters.',
          error: errors.password,
        })}
        <button type="submit">Create account</button>
      </form>
      <p>
        Already registered? <a href="/login?return_to=${encodeURIComponent(options.returnTo)}">Sign in</a>
      </p>`,
  );
}

export function signInSecondFactorPage(options: { csrfToken: string; error?: string }): string {
  return renderPage(
    'Two-factor code',
    html`<h1>Enter your two-factor code</h1>
      ${errorAlert(options.error)}
      <form method="post" action="/login/two-factor">
        ${csrfField(options.csrfToken)}
        ${inputField({
          id: 'code',
          name: 'code',
          label: 'Code from your authenticator app, or a recovery code',
          type: 'text',
          autocomplete: 'one-time-code',
          required: true,
          describedBy: options.error ? FORM_ERROR_ID : undefined,
        })}
        <button type="submit">Continue</button>
      </form>`,
  );
}

/** Instead of consent while the address is unverified. */
export function verifyFirstPage(options: { csrfToken: string; email: string }): string {
  return renderPage(
    'Verify your email first',
    html`<h1>Verify your email address first</h1>
      ${verifyFirstNotice(options)}
      <p>Once verified, open the application again and allow it.</p>`,
  );
}
