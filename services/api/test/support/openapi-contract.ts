import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Json;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Json;
}

export interface WalkedOperation {
  path: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  operation: OpenApiOperation;
}

/** What a request got back, as supertest gives it. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

/** The resource operations of the document: the protocol endpoints (`x-pfs-protocol`: MCP) aside. */
export function operationsOf(doc: OpenApiDocument): WalkedOperation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !(operation as { 'x-pfs-protocol'?: string })['x-pfs-protocol'])
      .map(([method, operation]) => ({
        path,
        method: method as WalkedOperation['method'],
        operation,
      })),
  );
}

/**
 * A copy of a schema where every object that lists its properties allows no other: what the document
 * declares is then the whole representation, so an undeclared field in a response is caught.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = closed(value);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/**
 * Checks real responses against an OpenAPI 3.1 document: the status must be declared, the media type one
 * of the declared ones, the body valid against the declared schema (JSON Schema 2020-12, as OpenAPI 3.1
 * says), every required header present and every declared header valid.
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly components: unknown;

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.components = closed(doc.components);
  }

  private resolve<T = Json>(node: Json): T {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node as T;
    const found = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at as Json)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    if (!found) throw new Error(`unresolved ${ref}`);
    return this.resolve(found as Json);
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...(closed(schema) as Json), components: this.components });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private validate(key: string, schema: Json, value: unknown): string[] {
    const validate = this.validator(key, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }

  private headerProblems(where: string, declared: Json, observed: ObservedResponse): string[] {
    const problems: string[] = [];
    for (const [name, raw] of Object.entries(declared)) {
      const header = this.resolve<{ required?: boolean; schema: Json }>(raw as Json);
      const value = observed.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`header ${name} is declared required but absent`);
        continue;
      }
      const text = Array.isArray(value) ? value.join(', ') : value;
      const numeric = ['integer', 'number'].includes(String(header.schema.type));
      const typed = numeric && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
      problems.push(
        ...this.validate(`${where} header ${name}`, header.schema, typed).map((p) => `header ${name}: ${p}`),
      );
    }
    return problems;
  }

  /** Every way a request body disagrees with what the operation declares it takes; empty when it agrees. */
  requestProblems(walked: WalkedOperation, contentType: string, body: unknown): string[] {
    const media = walked.operation.requestBody?.content[contentType];
    if (!media) return [`request content type "${contentType}" is not declared`];
    const where = `${walked.method} ${walked.path} request ${contentType}`;
    return this.validate(where, media.schema, body);
  }

  /** Every way `observed` disagrees with what the document declares for `walked`; empty when it agrees. */
  problems(walked: WalkedOperation, observed: ObservedResponse): string[] {
    const declared = walked.operation.responses[String(observed.status)];
    if (!declared) return [`status ${observed.status} is not declared`];
    const response = this.resolve<{ content?: Record<string, { schema: Json }>; headers?: Json }>(declared);
    const where = `${walked.method} ${walked.path} ${observed.status}`;
    const problems = this.headerProblems(where, response.headers ?? {}, observed);
    const contentType = String(observed.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const hasBody = Boolean(observed.text) || Buffer.isBuffer(observed.body);
    if (!response.content) {
      if (hasBody) problems.push(`a body came back (${contentType}) but none is declared`);
      return problems;
    }
    const media = response.content[contentType];
    if (!media) {
      const allowed = Object.keys(response.content).join(', ');
      return [...problems, `content type "${contentType}" is not declared (declared: ${allowed})`];
    }
    if (!hasBody) return [...problems, 'no body came back but one is declared'];
    if (Buffer.isBuffer(observed.body)) return problems;
    return [...problems, ...this.validate(`${where} ${contentType}`, media.schema, observed.body)];
  }
}
