import type { ExportRecord } from '@pfs/resource-store';
import { accountNav } from './account.pages';
import { csrfField, errorAlert, inputField } from './fields';
import { html } from './html';
import { renderPage } from './layout';

const READY = ['generated', 'sending', 'sent'];

function dataExportStep(csrfToken: string, latest: ExportRecord | undefined) {
  const ready = latest && latest.downloadUrl && READY.includes(latest.status) ? latest : undefined;
  const preparing = latest && !ready && ['waiting', 'generating'].includes(latest.status);
  return html`<section aria-labelledby="export-heading">
    <h2 id="export-heading">1. Take your data with you</h2>
    <p>
      A <code>user_data</code> export holds everything you have in PFS (profile, accounts, entries, budgets,
      categories, tags, images) in one archive. Download it before you delete the account: afterwards it is
      gone.
    </p>
    ${
      ready
        ? html`<p class="notice" role="status">
            Your data is ready:
            <a href="${ready.downloadUrl ?? ''}" id="user-data-link"
              >download ${ready.filename ?? 'your data'}</a
            >.
          </p>`
        : preparing
          ? html`<p class="notice" role="status" id="user-data-preparing">
              Your data is being prepared. Reload this page in a minute to download it.
            </p>`
          : ''
    }
    <form method="post" action="/account/delete/export">
      ${csrfField(csrfToken)}
      <button type="submit" class="secondary">Prepare a download of all my data</button>
    </form>
  </section>`;
}

/** "Delete account": the data export first, then the re-checked confirmation. */
export function deleteAccountPage(options: {
  csrfToken: string;
  email: string;
  latestExport: ExportRecord | undefined;
  passwordError?: string;
  error?: string;
}): string {
  return renderPage(
    'Delete your account',
    html`${accountNav(options.csrfToken, options.email)}
      <h1>Delete your account</h1>
      ${errorAlert(options.error)} ${dataExportStep(options.csrfToken, options.latestExport)}
      <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">2. Delete the account</h2>
        <p>
          This deletes <strong>${options.email}</strong> and everything of it for good: your data, stored
          files, exports, personal tokens, the access of every application and the applications you
          registered. It cannot be undone. You are signed out at once; the rest is erased within minutes.
        </p>
        <form method="post" action="/account/delete">
          ${csrfField(options.csrfToken)}
          ${inputField({
            id: 'delete_password',
            name: 'password',
            label: 'Your password, to confirm',
            type: 'password',
            autocomplete: 'current-password',
            required: true,
            error: options.passwordError,
          })}
          <button type="submit" class="danger">Delete my account for good</button>
        </form>
      </section>`,
    { wide: true },
  );
}
