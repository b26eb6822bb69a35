import type { ResourceSchema } from '@pfs/resource-api';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function renderResource(schema: ResourceSchema): string {
  const fields = Object.entries(schema.properties)
    .map(([name, property]) => {
      const type = escapeHtml(String(property.type ?? 'object'));
      const notes = escapeHtml(String(property.description ?? ''));
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${type}${property.readOnly ? ' (read-only)' : ''}</td><td>${notes}</td></tr>`;
    })
    .join('');
  const links = schema.links
    .map(
      (link) =>
        `<li><code>${link.method} ${escapeHtml(link.href)}</code>: ${escapeHtml(link.title)}${link.scope ? ` (scope <code>${escapeHtml(link.scope)}</code>)` : ''}</li>`,
    )
    .join('');
  return `<section id="${escapeHtml(schema.name)}"><h2>${escapeHtml(schema.title)}</h2>
<p>${escapeHtml(schema.description ?? '')} Schema: <a href="schema/${escapeHtml(schema.name)}">/schema/${escapeHtml(schema.name)}</a></p>
<ul>${links}</ul><table><caption>Fields of ${escapeHtml(schema.title)}</caption><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Notes</th></tr></thead><tbody>${fields}</tbody></table></section>`;
}

/**
 * A small human page over the same schemas as /openapi.json; WCAG 2.2 AA like the auth pages (viewport
 * meta, landmarks, table headers, reflow at 390 px: long codes and tables wrap instead of scrolling sideways).
 */
export function renderDocsPage(schemas: ResourceSchema[], baseUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>PFS API</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d2330}a{color:#1f4bb8}code{overflow-wrap:anywhere}table{border-collapse:collapse;width:100%;table-layout:fixed;overflow-wrap:anywhere}caption{text-align:left;font-weight:600}td,th{border:1px solid #6b7280;padding:.25rem .5rem;text-align:left;vertical-align:top}</style>
</head><body><main><h1>PFS resource API</h1>
<p>Base URL <code>${escapeHtml(baseUrl)}</code>. Machine-readable: <a href="openapi.json">/openapi.json</a> (OpenAPI 3.1) and <code>/schema/&lt;resource&gt;</code> (JSON Hyper-Schema).
Lists take <code>page</code>, <code>per_page</code>, <code>since</code>, <code>include_deleted</code>; follow the <code>Link</code> header.</p>
${schemas.map(renderResource).join('\n')}</main></body></html>`;
}
