import { html, RawHtml } from './html';

/** The hidden field every page form carries (double-submit CSRF, see csrf.ts). */
export const csrfField = (csrfToken: string): RawHtml =>
  html`<input type="hidden" name="csrf_token" value="${csrfToken}" />`;

/** The id of a form-level problem, which the fields it concerns name in `aria-describedby`. */
export const FORM_ERROR_ID = 'form-error';

/** A form's problem, announced to screen readers; nothing when there is none. */
export const errorAlert = (error: string | undefined): RawHtml | string =>
  error ? html`<p class="error" role="alert" id="${FORM_ERROR_ID}">${error}</p>` : '';

/** The start of the sign-in and sign-up forms: CSRF, where to go afterwards, and the email. */
export function accountFields(options: {
  csrfToken: string;
  returnTo: string;
  email?: string;
  /** The email's own problem (sign-up), shown under it. */
  emailError?: string;
  /** A problem of the whole form (sign-in) that concerns the email too. */
  formError?: boolean;
}): RawHtml {
  return html`${csrfField(options.csrfToken)}
    <input type="hidden" name="return_to" value="${options.returnTo}" />
    ${inputField({
      id: 'email',
      name: 'email',
      label: 'Email',
      type: 'email',
      autocomplete: 'username',
      required: true,
      value: options.email ?? '',
      error: options.emailError,
      describedBy: options.formError ? FORM_ERROR_ID : undefined,
    })}`;
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
  /** Another element describing the field (a form-level error); the field is then marked invalid too. */
  describedBy?: string;
  maxlength?: number;
  inputmode?: string;
  pattern?: string;
}): RawHtml {
  const invalid = !!(options.error || options.describedBy);
  const described = [
    options.describedBy ?? '',
    options.hint ? `${options.id}-hint` : '',
    options.error ? `${options.id}-error` : '',
  ]
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
      ${options.maxlength ? html`maxlength="${options.maxlength}"` : ''}
      ${options.inputmode ? html`inputmode="${options.inputmode}"` : ''}
      ${options.pattern ? html`pattern="${options.pattern}"` : ''}
      ${options.value !== undefined ? html`value="${options.value}"` : ''}
      ${described ? html`aria-describedby="${described}"` : ''}
      ${invalid ? html`aria-invalid="true"` : ''}
    />`;
}
