import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml as `docker compose config` would see it, without Docker: YAML merge keys (`<<`)
 * resolved by the yaml parser, then compose's variable interpolation (the compose specification's rules).
 */
export const repoRoot = join(__dirname, '../../..');

export type Vars = Record<string, string | undefined>;

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string };
  environment?: Record<string, string | number | boolean>;
  ports?: string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** Raised like compose does when a `${VAR:?message}` (or `${VAR?message}`) has no value. */
export class MissingVariableError extends Error {
  constructor(readonly missing: { name: string; message: string }[]) {
    super(missing.map((m) => `required variable ${m.name} is missing a value: ${m.message}`).join('\n'));
  }
}

const REFERENCE = /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** One string: `$$` → `$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?msg}`, `${VAR?msg}`, `${VAR:+alt}`. */
function interpolateString(text: string, vars: Vars, missing: { name: string; message: string }[]): string {
  return text.replace(REFERENCE, (_match, dollar, braced, operator, argument, bare) => {
    if (dollar) return '$';
    const name: string = braced ?? bare;
    const value = vars[name];
    const unset = value === undefined;
    const emptyOrUnset = unset || value === '';
    switch (operator) {
      case ':-':
        return emptyOrUnset ? argument : value!;
      case '-':
        return unset ? argument : value!;
      case ':?':
      case '?':
        if (operator === ':?' ? emptyOrUnset : unset) {
          missing.push({ name, message: argument });
          return '';
        }
        return value!;
      case ':+':
        return emptyOrUnset ? '' : argument;
      case '+':
        return unset ? '' : argument;
      default:
        return value ?? '';
    }
  });
}

function interpolateValue(value: unknown, vars: Vars, missing: { name: string; message: string }[]): unknown {
  if (typeof value === 'string') return interpolateString(value, vars, missing);
  if (Array.isArray(value)) return value.map((item) => interpolateValue(item, vars, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateValue(item, vars, missing)]),
    );
  }
  return value;
}

export function readComposeText(): string {
  return readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
}

/** The compose file with `vars` (what .env and the shell give compose); throws MissingVariableError like compose. */
export function loadCompose(vars: Vars, text = readComposeText()): ComposeFile {
  const document = parse(text, { merge: true }) as Record<string, unknown>;
  const missing: { name: string; message: string }[] = [];
  const interpolated = interpolateValue(document, vars, missing) as ComposeFile;
  // Unique by name: compose stops at the first, a test wants to see all of them.
  const unique = missing.filter((m, index) => missing.findIndex((other) => other.name === m.name) === index);
  if (unique.length) throw new MissingVariableError(unique);
  return interpolated;
}

/** Names of every variable the compose file interpolates. */
export function referencedVariables(text = readComposeText()): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) if (!match[1]) names.add(match[2] ?? match[5]);
  return [...names].sort();
}

/** A dotenv file (compose's .env format, the subset .env.example uses): variables and the comment above each. */
export function readEnvFile(path: string): {
  vars: Record<string, string>;
  comments: Record<string, string>;
} {
  const vars: Record<string, string> = {};
  const comments: Record<string, string> = {};
  let comment: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) comment.push(trimmed.replace(/^#\s?/, ''));
    else if (!trimmed) comment = [];
    else {
      const [name, ...rest] = trimmed.split('=');
      vars[name] = rest.join('=');
      comments[name] = comment.join(' ');
      comment = [];
    }
  }
  return { vars, comments };
}
