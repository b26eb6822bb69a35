import { z } from 'zod';

/** Field builders for environment variables: each takes its default and documents its rule in the error. */
export const envInt = (defaultValue: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ invalid_type_error: 'must be an integer' })
    .int('must be an integer')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(defaultValue);

export const envPort = (defaultValue: number) => envInt(defaultValue, 0, 65535);

const absoluteUrl = () =>
  z
    .string()
    .url('must be an absolute URL')
    .transform((value) => value.replace(/\/+$/, ''));

/** An absolute URL with any trailing slash removed, so paths can be appended. */
export const envUrl = (defaultValue: string) => absoluteUrl().default(defaultValue);
export const envOptionalUrl = () => absoluteUrl().optional();

/** A PostgreSQL connection URL: node-postgres reads only the postgres:// and postgresql:// forms. */
export const envPostgresUrl = (defaultValue: string) =>
  absoluteUrl()
    .refine((value) => /^postgres(ql)?:\/\//i.test(value), 'must start with postgres:// or postgresql://')
    .default(defaultValue);

/** An optional PostgreSQL connection URL (unset: the feature it configures falls back or stays off). */
export const envOptionalPostgresUrl = () =>
  absoluteUrl()
    .refine((value) => /^postgres(ql)?:\/\//i.test(value), 'must start with postgres:// or postgresql://')
    .optional();

export const envBool = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      errorMap: () => ({ message: 'must be true or false' }),
    })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .default(defaultValue ? 'true' : 'false');

export const envString = (defaultValue: string) => z.string().default(defaultValue);
export const envOptionalString = () => z.string().optional();

export const envEnum = <T extends [string, ...string[]]>(values: T, defaultValue: T[number]) =>
  z
    .enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) })
    .default(defaultValue);

/** A port that may stay unset (the listener it configures is then off). */
export const envOptionalPort = () =>
  z.coerce
    .number({ invalid_type_error: 'must be an integer' })
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(65535, 'must be at most 65535')
    .optional();

/**
 * A comma-separated list of exact origins (`scheme://host[:port]`, as a browser sends `Origin`), parsed once
 * into an array; unset or empty is none. A path, a trailing slash, a wildcard or upper case is refused,
 * since it would never equal an `Origin` header.
 */
export const envOriginList = () =>
  z
    .string()
    .default('')
    .transform((raw, ctx) => {
      const origins = raw
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== '');
      for (const origin of origins) {
        if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `"${origin}" is not an exact origin (scheme://host[:port], lower case, no path)`,
          });
        }
      }
      return origins;
    });

/**
 * A comma-separated list of `host:port` addresses (Redis Cluster seed nodes), parsed once into
 * `{ host, port }`; unset or empty is none.
 */
export const envHostPortList = () =>
  z
    .string()
    .default('')
    .transform((raw, ctx) => {
      const nodes: Array<{ host: string; port: number }> = [];
      for (const item of raw.split(',').map((part) => part.trim())) {
        if (item === '') continue;
        const match = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(item);
        const port = match ? Number(match[2]) : 0;
        if (!match || port < 1 || port > 65535) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${item}" is not host:port` });
          continue;
        }
        nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
      }
      return nodes;
    });
