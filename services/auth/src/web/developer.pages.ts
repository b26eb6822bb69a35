import { ALL_SCOPES, parseScope, SCOPE_DESCRIPTIONS } from '@pfs/contracts';
import type { CreatedClient } from '../use-cases/create-client.use-case';
import { accountNav } from './account.pages';
import { csrfField, dataTable, errorAlert, FORM_ERROR_ID, inputField } from './fields';
import { html } from './html';
import { renderPage } from './layout';
import type { OAuthClientRecord } from '@pfs/resource-store';

function appsTable(apps: OAuthClientRecord[]) {
  if (!apps.length) return html`<p>You have not registered any application.</p>`;
  return dataTable(
    ['Name', 'client_id', 'Redirect URI', 'Scope'],
    apps.map(
      (app) =>
        html`<tr>
          <td>${app.name}${app.grants.includes('implicit') ? ' (implicit allowed)' : ''}</td>
          <td><code>${app.id}</code></td>
          <td>${app.redirectUri}</td>
          <td><code>${app.scope}</code></td>
        </tr>`,
    ),
  );
}

function scopeChoices(selected: string[]) {
  return html`<fieldset>
    <legend>Default scope</legend>
    ${ALL_SCOPES.map(
      (scope) =>
        html`<div class="choice">
          <input
            type="checkbox"
            id="scope-${scope}"
            name="scope"
            value="${scope}"
            ${selected.includes(scope) ? 'checked' : ''}
          />
          <label for="scope-${scope}">${scope}: ${SCOPE_DESCRIPTIONS[scope]}</label>
        </div>`,
    )}
  </fieldset>`;
}

/** The developer page: register an application (its secret shown once) and list the ones you registered. */
export function developerPage(options: {
  csrfToken: string;
  email: string;
  apps: OAuthClientRecord[];
  created?: CreatedClient;
  error?: string;
  form?: { name?: string; redirectUri?: string; scope?: string };
}): string {
  const created = options.created;
  return renderPage(
    'Developer',
    html`${accountNav(options.csrfToken, options.email)}
      <h1>Your applications</h1>
      ${
        created
          ? html`<div class="notice" role="status">
              <p>Application registered. Copy the secret now; it is shown only once.</p>
              <p>client_id: <code id="client-id">${created.client_id}</code></p>
              <p>client_secret: <code class="secret" id="client-secret">${created.client_secret}</code></p>
            </div>`
          : ''
      }
      ${errorAlert(options.error)} ${appsTable(options.apps)}
      <section aria-labelledby="register-heading">
        <h2 id="register-heading">Register an application</h2>
        <form method="post" action="/developer/apps">
          ${csrfField(options.csrfToken)}
          ${inputField({
            id: 'app_name',
            name: 'name',
            label: 'Name',
            type: 'text',
            maxlength: 100,
            required: true,
            value: options.form?.name ?? '',
            describedBy: options.error ? FORM_ERROR_ID : undefined,
          })}
          ${inputField({
            id: 'redirect_uri',
            name: 'redirect_uri',
            label: 'Redirect URI',
            type: 'text',
            required: true,
            value: options.form?.redirectUri ?? '',
            describedBy: options.error ? FORM_ERROR_ID : undefined,
          })}
          ${scopeChoices(parseScope(options.form?.scope))}
          <div class="choice">
            <input type="checkbox" id="implicit" name="implicit" value="yes" />
            <label for="implicit"
              >Public client (browser or mobile app): allow the implicit grant, require PKCE</label
            >
          </div>
          <button type="submit">Register</button>
        </form>
      </section>`,
    { wide: true },
  );
}
