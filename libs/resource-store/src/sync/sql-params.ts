/** Adds a value to a query's parameters and returns its placeholder (`$3`). */
export type SqlParam = (value: unknown) => string;

/** One condition on the resource table (alias `t`), written with placeholders: `(p) => \`t.type = ${p(type)}\``. */
export type SqlFilter = (param: SqlParam) => string;

/** Collects positional parameters for one statement. */
export class SqlParams {
  readonly values: unknown[] = [];
  readonly add: SqlParam = (value) => {
    this.values.push(value);
    return `$${this.values.length}`;
  };
}

/** The ILIKE pattern of "contains `term`": `%`, `_` and `\` are literal in the term. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
