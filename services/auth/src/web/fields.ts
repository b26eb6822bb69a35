import { html, RawHtml } from './html';

/** The hidden field every page form carries (double-submit CSRF, see csrf.ts). */
export const csrfField = (csrfToken: string): RawHtml =>
  html`<input type="hidden" name="csrf_token" value="${csrfToken}" />`;

/** A form's problem, announced to screen readers; nothing when there is none. */
export const errorAlert = (error: string | undefined): RawHtml | string =>
  error ? html`<p class="error" role="alert">${error}</p>` : '';

/** The start of the sign-in and sign-up forms: CSRF, where to go afterwards, and the email. */
export function accountFields(options: { csrfToken: string; returnTo: string; email?: string }): RawHtml {
  return html`${csrfField(options.csrfToken)}
    <input type="hidden" name="return_to" value="${options.returnTo}" />
    <label for="email">Email</label>
    <input
      id="email"
      name="email"
      type="email"
      autocomplete="username"
      required
      value="${options.email ?? ''}"
    />`;
}

/** A table of records: one header per column (an empty one heads a column of buttons), then the rows. */
export function dataTable(headers: readonly string[], rows: readonly RawHtml[]): RawHtml {
  return html`<table>
    <thead>
      <tr>
        ${headers.map((header) => html`<th scope="col">${header}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/**
 * A labelled input; its problem, when there is one, is shown under it and tied to it (`aria-describedby`,
 * `aria-invalid`), so a screen reader reads the error with the field.
 */
export function inputField(options: {
  id: string;
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
  value?: string;
  hint?: string;
  error?: string;
}): RawHtml {
  const described = [options.hint ? `${options.id}-hint` : '', options.error ? `${options.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return html`<label for="${options.id}">${options.label}</label>
    ${options.hint ? html`<p class="hint" id="${options.id}-hint">${options.hint}</p>` : ''}
    ${options.error ? html`<p class="field-error" id="${options.id}-error">${options.error}</p>` : ''}
    <input
      id="${options.id}"
      name="${options.name}"
      type="${options.type}"
      ${options.autocomplete ? html`autocomplete="${options.autocomplete}"` : ''}
      ${options.required ? 'required' : ''}
      ${options.minlength ? html`minlength="${options.minlength}"` : ''}
      ${options.value !== undefined ? html`value="${options.value}"` : ''}
      ${described ? html`aria-describedby="${described}"` : ''}
      ${options.error ? html`aria-invalid="true"` : ''}
    />`;
}
