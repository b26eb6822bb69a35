/** The process environment as the config parser reads it: names to raw string values. */
export type Env = Record<string, string | undefined>;
