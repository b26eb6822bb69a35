import { html, RawHtml } from './html';

/**
 * WCAG 2.2 AA: text and controls at 4.5:1 / 3:1 (input borders #6b7280 on white is 4.8:1), every target at
 * least 44 × 44 px, focus always visible, and a layout that reflows at 390 px (navigation wraps, tables and
 * long codes break instead of scrolling sideways).
 */
const STYLES = `
  body { font-family: system-ui, sans-serif; background: #f5f6f8; color: #1d2330; margin: 0; line-height: 1.5; }
  main { max-width: 26rem; margin: 2rem auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  @media (max-width: 480px) { main { margin: 0; padding: 1rem; border-radius: 0; } }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin: 1rem 0 .3rem; font-weight: 600; }
  input[type=email], input[type=password], input[type=text] { width: 100%; box-sizing: border-box; padding: .6rem;
         min-height: 44px; border: 1px solid #6b7280; border-radius: 4px; font-size: 1rem; }
  input[aria-invalid=true] { border: 2px solid #a61b1b; }
  input[type=checkbox] { width: 24px; height: 24px; margin: 10px; vertical-align: middle; }
  .choice { display: flex; align-items: center; min-height: 44px; }
  .choice label { display: inline; margin: 0; font-weight: normal; }
  button { margin-top: 1.2rem; min-height: 44px; min-width: 44px; padding: .6rem 1.2rem; font-size: 1rem;
           border-radius: 4px; border: 1px solid #2450b2; background: #2a5bd7; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1f4bb8; }
  button.danger { background: #a61b1b; border-color: #7f1414; }
  button.link { background: none; border: none; color: #1f4bb8; text-decoration: underline; padding: .6rem 0; margin: 0; }
  :focus-visible { outline: 3px solid #1d2330; outline-offset: 2px; }
  a { color: #1f4bb8; }
  main > p > a, nav a, section > p > a { display: inline-flex; align-items: center; min-height: 44px; min-width: 44px; }
  .error { color: #a61b1b; background: #fdecec; padding: .6rem; border-radius: 4px; }
  .field-error { color: #a61b1b; margin: 0 0 .3rem; }
  .hint { color: #4b5563; margin: 0 0 .3rem; }
  ul.scopes { padding-left: 1.2rem; }
  main.wide { max-width: 48rem; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0; table-layout: fixed; overflow-wrap: anywhere; }
  th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #e1e4ea; vertical-align: top; }
  td form button, .inline button { margin-top: 0; }
  form.inline { display: inline-block; }
  .notice { background: #eaf6ec; padding: .8rem; border-radius: 4px; overflow-wrap: anywhere; }
  code { overflow-wrap: anywhere; }
  code.secret { font-size: 1.05rem; }
  nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; }
  section { margin-top: 2rem; }
`;

/** The shell of every page: small, no scripts, readable without CSS. */
export function renderPage(title: string, body: RawHtml, options: { wide?: boolean } = {}): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · PFS</title>
        <style>
          ${new RawHtml(STYLES)}
        </style>
      </head>
      <body>
        <main class="${options.wide ? 'wide' : ''}">${body}</main>
      </body>
    </html>`.value;
}
