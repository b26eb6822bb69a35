import { inputError } from '@pfs/errors';
import Ajv2019, { ErrorObject, ValidateFunction } from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { isDeepStrictEqual } from 'node:util';
import { asJsonNumbers } from './json-numbers';
import { normalizeBody } from './normalize-body';
import {
  createSchemaOf,
  JsonSchema,
  ResourceSchema,
  updateSchemaOf,
  writableProperties,
} from './resource-schema';

/** The body field an error names; `member` when a member was validated on its own (`transaction.account`). */
function fieldOf(error: ErrorObject, member?: string): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  // A missing member, or one the object does not allow (additionalProperties: false), is named itself.
  const named = params.missingProperty ?? params.additionalProperty;
  const field = named ? (path ? `${path}.${named}` : named) : path;
  if (member) return field ? `${member}.${field}` : member;
  return field || '(body)';
}

/** The rule an error states, in the words of docs/errors.md where ajv's own are vague. */
function ruleOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not a known field';
  if (error.keyword === 'enum') {
    return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  }
  return error.message ?? 'is invalid';
}

function toInputError(errors: ErrorObject[] | null | undefined, member?: string) {
  const fields = (errors ?? []).map((error) => ({
    field: fieldOf(error, member),
    error: ruleOf(error),
  }));
  return inputError(fields);
}

interface CompiledSchema {
  schema: ResourceSchema;
  create: ValidateFunction;
  update: ValidateFunction;
  createProperties: Record<string, JsonSchema>;
  updateProperties: Record<string, JsonSchema>;
}

/**
 * Every resource's schema, compiled once at boot (never per request). Write bodies are normalised
 * (read-only fields dropped, placeholders of existing clients unset) and then validated by the same
 * schema that `GET /schema/<name>` publishes.
 */
export class SchemaRegistry {
  private readonly ajv = new Ajv2019({ allErrors: true, strict: false, coerceTypes: false });
  private readonly compiled = new Map<string, CompiledSchema>();
  /** Validators of single members (`entries#transaction`), compiled on first use. */
  private readonly members = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  register(schema: ResourceSchema): void {
    const existing = this.compiled.get(schema.name);
    // The same resource published again (a second app over the same dependencies) is harmless.
    if (existing && isDeepStrictEqual(existing.schema, schema)) return;
    if (existing) throw new Error(`two different schemas are named ${schema.name}`);
    this.compiled.set(schema.name, {
      schema,
      create: this.ajv.compile(createSchemaOf(schema)),
      update: this.ajv.compile(updateSchemaOf(schema)),
      createProperties: writableProperties(schema, false),
      updateProperties: writableProperties(schema, true),
    });
  }

  list(): ResourceSchema[] {
    return [...this.compiled.values()].map((entry) => entry.schema);
  }

  find(name: string): ResourceSchema | undefined {
    return this.compiled.get(name)?.schema;
  }

  private get(name: string): CompiledSchema {
    const entry = this.compiled.get(name);
    if (!entry) throw new Error(`schema ${name} is not registered`);
    return entry;
  }

  /**
   * Normalises and validates a create body; returns only the writable fields. `Body` is the type derived from
   * the same schema (`WriteBodyOf`), which the validation has just made true.
   */
  parseCreate<Body extends object = Record<string, unknown>>(name: string, body: unknown): Body {
    const entry = this.get(name);
    const normalized = normalizeBody(body, entry.createProperties);
    if (!entry.create(normalized)) throw toInputError(entry.create.errors);
    return normalized as Body;
  }

  /** Normalises (without validating) a PUT body or the result of a PATCH, keeping `modified`. */
  normalizeUpdate(name: string, body: unknown): Record<string, unknown> {
    return normalizeBody(body, this.get(name).updateProperties);
  }

  /**
   * Validates a merged PUT/PATCH state whose amounts may be the exact text of the stored snapshot (read as
   * numbers for the check: `asJsonNumbers`); returns the state, exact text kept, as the schema's derived type.
   */
  parseStoredState<Body extends object>(name: string, state: Record<string, unknown>): Body {
    this.assertValidState(name, asJsonNumbers(state, this.get(name).updateProperties));
    return state as Body;
  }

  /** Validates a full writable state (a PUT body with nothing to merge); returns it as the schema's derived type. */
  parseState<Body extends object>(name: string, state: Record<string, unknown>): Body {
    this.assertValidState(name, state);
    return state as Body;
  }

  /**
   * Validates one writable member of a body on its own with its published schema (an entry update's
   * `transaction`, which the merged state leaves out); fields are named from the body (`transaction.account`).
   */
  parseMember<Member>(name: string, member: string, value: unknown): Member {
    const key = `${name}#${member}`;
    let validate = this.members.get(key);
    if (!validate) {
      const schema = this.get(name).updateProperties[member];
      if (!schema) throw new Error(`schema ${name} has no writable member ${member}`);
      this.members.set(key, (validate = this.ajv.compile(schema)));
    }
    if (!validate(value)) throw toInputError(validate.errors, member);
    return value as Member;
  }

  /**
   * A reader of a body that `schema` (the object a link publishes) validates, compiled once, here: every
   * refused member is named by its path (`with.tags.0`) with its rule, as for a resource's own bodies.
   */
  bodyReader<Body extends object>(schema: JsonSchema): (body: unknown) => Body {
    const validate = this.ajv.compile(schema);
    return (body) => {
      if (!validate(body)) throw toInputError(validate.errors);
      return body as Body;
    };
  }

  /**
   * A reader of an action link's submission (merge, reorder, move), validated by the very schema object the link
   * publishes (compiled once, here). As the routes' own checks did, the answer names one member: the first one,
   * in the schema's order, that the schema or its `limits` (what the published schema does not state, such as
   * a list's bounds; checked on members the schema passed) refuse, with the rule the route gives for it. A body
   * that is not an object reads as `{}`: its required members are missing.
   */
  submissionReader<Body extends object>(
    schema: JsonSchema,
    rules: Record<string, string>,
    limits: Record<string, (value: unknown) => boolean> = {},
  ): (body: unknown) => Body {
    const validate = this.ajv.compile(schema);
    const members = Object.keys((schema.properties ?? {}) as object);
    return (body) => {
      const value = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
      const refused = new Set(
        validate(value) ? [] : (validate.errors ?? []).map((e) => fieldOf(e).split('.')[0]),
      );
      for (const [member, within] of Object.entries(limits)) {
        const given = (value as Record<string, unknown>)[member];
        if (!refused.has(member) && given !== undefined && !within(given)) refused.add(member);
      }
      if (!refused.size) return value as Body;
      const field = members.find((member) => refused.has(member)) ?? [...refused][0];
      throw inputError([{ field, error: rules[field] ?? 'is invalid' }]);
    };
  }

  /** Validates a full writable state (after PUT normalisation or PATCH application), `modified` excluded. */
  assertValidState(name: string, state: Record<string, unknown>): void {
    const entry = this.get(name);
    const withModified = { ...state, modified: 'x' };
    if (!entry.update(withModified)) throw toInputError(entry.update.errors);
  }
}
