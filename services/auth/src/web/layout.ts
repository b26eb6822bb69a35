import { html, RawHtml } from './html';

const STYLES = `
  body { font-family: system-ui, sans-serif; background: #f5f6f8; color: #1d2330; margin: 0; }
  main { max-width: 26rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin: 1rem 0 .3rem; font-weight: 600; }
  input[type=email], input[type=password], input[type=text] { width: 100%; box-sizing: border-box; padding: .6rem;
         border: 1px solid #b8bfcc; border-radius: 4px; font-size: 1rem; }
  button { margin-top: 1.2rem; padding: .6rem 1.2rem; font-size: 1rem; border-radius: 4px; border: 1px solid #2450b2;
           background: #2a5bd7; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #2a5bd7; }
  .error { color: #a61b1b; background: #fdecec; padding: .6rem; border-radius: 4px; }
  ul.scopes { padding-left: 1.2rem; }
  main.wide { max-width: 48rem; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
  th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #e1e4ea; vertical-align: top; }
  td form button, .inline button { margin-top: 0; }
  .notice { background: #eaf6ec; padding: .8rem; border-radius: 4px; word-break: break-all; }
  code.secret { font-size: 1.05rem; }
  nav { display: flex; gap: 1rem; align-items: baseline; }
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
