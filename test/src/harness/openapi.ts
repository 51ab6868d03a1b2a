/**
 * Checks real answers against the controller's OpenAPI document (GET /openapi.json): the
 * operation must exist for the method and path, the status must be documented (or fall
 * to `default`, the APIError), the Content-Type must be one the operation lists, and a JSON
 * body must validate against that media type's schema (ajv, JSON Schema 2020-12). Request
 * bodies the same way, against the operation's requestBody (`checkRequest`).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export class OpenApiValidator {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #templates: { method: string; template: string; re: RegExp }[];
  /** Every answer checked: `METHOD /template status`. */
  readonly checked: string[] = [];

  constructor(readonly doc: OpenApiDocument) {
    this.#ajv.addSchema({ $id: 'openapi', components: doc.components } as object);
    this.#templates = Object.entries(doc.paths).flatMap(([template, ops]) =>
      Object.keys(ops).map((method) => ({
        method: method.toUpperCase(),
        template,
        re: new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      })),
    );
  }

  static async load(base: string): Promise<OpenApiValidator> {
    const res = await fetch(`${base}/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /openapi.json: ${res.status}`);
    return new OpenApiValidator((await res.json()) as OpenApiDocument);
  }

  /** The documented operation of a concrete request path (with or without /v1), most specific template first. */
  operation(method: string, path: string): { template: string; op: Operation } | undefined {
    const p = path.split('?')[0]!;
    const full = p.startsWith('/v1/') ? p : `/v1${p}`;
    const matches = this.#templates.filter((t) => t.method === method && t.re.test(full));
    // A literal segment beats a parameter: /jobs/health before /jobs/{uuid}.
    matches.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
    const m = matches[0];
    return m ? { template: m.template, op: this.doc.paths[m.template]![method.toLowerCase()]! } : undefined;
  }

  /** The problems of one answer; empty when it matches the document. */
  check(method: string, path: string, status: number, contentType: string, body: string): string[] {
    const found = this.operation(method, path);
    if (!found) return [`${method} ${path}: no operation in the document`];
    this.checked.push(`${method} ${found.template} ${status}`);
    const response = found.op.responses[String(status)] ?? (status >= 400 ? found.op.responses['default'] : undefined);
    if (!response) return [`${method} ${found.template}: status ${status} is not documented (${Object.keys(found.op.responses).join(', ')})`];
    if (!response.content || body === '') return [];
    const type = contentType.split(';')[0]!.trim();
    const media = Object.entries(response.content).find(([m]) => m === contentType || m.split(';')[0]!.trim() === type || m === contentType.replace(/\s/g, ''));
    if (!media) return [`${method} ${found.template} ${status}: Content-Type ${contentType} is not one of ${Object.keys(response.content).join(', ')}`];
    return this.#validate(`${method} ${found.template} ${status}`, `${found.template} ${method} ${status} ${media[0]}`, media[1].schema, type, body);
  }

  /** The problems of one request body (JSON); empty when it matches the operation's requestBody. */
  checkRequest(method: string, path: string, contentType: string, body: string): string[] {
    const found = this.operation(method, path);
    if (!found) return [`${method} ${path}: no operation in the document`];
    const content = found.op.requestBody?.content;
    if (!content) return [`${method} ${found.template}: a body was sent, but the operation documents none`];
    const type = contentType.split(';')[0]!.trim();
    const media = Object.entries(content).find(([m]) => m === contentType || m.split(';')[0]!.trim() === type);
    if (!media) return [`${method} ${found.template} request: Content-Type ${contentType} is not one of ${Object.keys(content).join(', ')}`];
    return this.#validate(`${method} ${found.template} request`, `${found.template} ${method} request ${media[0]}`, media[1].schema, type, body);
  }

  #validate(what: string, key: string, schema: unknown, type: string, body: string): string[] {
    if (!schema || !type.includes('json')) return [];
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(rewriteRefs(schema) as object);
      this.#compiled.set(key, validate);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return [`${what}: the body is not JSON`];
    }
    if (validate(parsed)) return [];
    return (validate.errors ?? []).map((e) => `${what}: ${e.instancePath || '(body)'} ${e.message ?? ''}`);
  }
}

/** `#/components/...` inside an operation's schema, pointed at the document registered as `openapi`. */
function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rewriteRefs(v)]),
    );
  }
  return schema;
}
