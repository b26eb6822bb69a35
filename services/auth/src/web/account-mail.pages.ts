import { csrfField, errorAlert, inputField } from './fields';
import { html, RawHtml } from './html';
import { renderPage } from './layout';

/** "Forgot your password?": one field; after sending, the same answer whether or not the address exists. */
export function forgotPasswordPage(options: { csrfToken: string; sentTo?: string; error?: string }): string {
  if (options.sentTo !== undefined) {
    return renderPage(
      'Check your mail',
      html`<h1>Check your mail</h1>
        <p class="notice" role="status">
          If an account uses <strong>${options.sentTo}</strong>, we have sent it a link to choose a new
          password. The link works once, for 30 minutes.
        </p>
        <p><a href="/login">Back to sign-in</a></p>`,
    );
  }
  return renderPage(
    'Forgot your password?',
    html`<h1>Forgot your password?</h1>
      ${errorAlert(options.error)}
      <p>Enter the email address of your account; we will mail you a link to choose a new password.</p>
      <form method="post" action="/forgot-password">
        ${csrfField(options.csrfToken)}
        ${inputField({ id: 'email', name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true })}
        <button type="submit">Send the link</button>
      </form>
      <p><a href="/login">Back to sign-in</a></p>`,
  );
}

/** The form behind a reset link: the token travels as a hidden field, never in a logged URL again. */
export function resetPasswordPage(options: { csrfToken: string; token: string; error?: string }): string {
  return renderPage(
    'Choose a new password',
    html`<h1>Choose a new password</h1>
      <p>After this, every browser and application signed in to your account is signed out.</p>
      <form method="post" action="/reset-password">
        ${csrfField(options.csrfToken)}
        <input type="hidden" name="token" value="${options.token}" />
        ${inputField({
          id: 'password',
          name: 'password',
          label: 'New password',
          type: 'password',
          autocomplete: 'new-password',
          required: true,
          minlength: 8,
          hint: 'At least 8 characters.',
          error: options.error,
        })}
        <button type="submit">Set the new password</button>
      </form>`,
  );
}

/** A page that says one thing and offers one way on. */
export function messagePage(options: {
  title: string;
  message: string;
  link?: { href: string; label: string };
  status?: 'status' | 'alert';
}): string {
  const role = options.status ?? 'status';
  return renderPage(
    options.title,
    html`<h1>${options.title}</h1>
      <p class="${role === 'alert' ? 'error' : 'notice'}" role="${role}">${options.message}</p>
      ${options.link ? html`<p><a href="${options.link.href}">${options.link.label}</a></p>` : ''}`,
  );
}

/** Shown instead of consent (and beside personal tokens) while the address is not verified. */
export function verifyFirstNotice(options: { csrfToken: string; email: string }): RawHtml {
  return html`<div class="notice" role="status" id="verify-notice">
    <p>
      Your email address <strong>${options.email}</strong> is not verified yet. Open the link we mailed you;
      until then, applications cannot be given access and personal tokens cannot be created.
    </p>
    <form method="post" action="/account/verify-email/resend" class="inline">
      ${csrfField(options.csrfToken)}
      <button type="submit" class="secondary">Send the link again</button>
    </form>
  </div>`;
}
