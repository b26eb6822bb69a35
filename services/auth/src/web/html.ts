/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A tagged template whose interpolations are escaped unless wrapped with `raw`. */
export class RawHtml {
  constructor(readonly value: string) {}
}
export const raw = (value: string) => new RawHtml(value);

export function html(strings: TemplateStringsArray, ...values: unknown[]): RawHtml {
  let out = strings[0];
  values.forEach((value, index) => {
    const items = Array.isArray(value) ? value : [value];
    out += items
      .map((item) =>
        item instanceof RawHtml
          ? item.value
          : item === undefined || item === null
            ? ''
            : escapeHtml(String(item)),
      )
      .join('');
    out += strings[index + 1];
  });
  return new RawHtml(out);
}
