/**
 * The original platform's 2016 Swagger 2.0 file (test/fixtures/reference-swagger-2016.json, a
 * copy of shared/spec/reference-swagger-2016.json) as JSON Schema, and what its generated
 * clients did with the models it describes.
 *
 * Swagger 2.0 schema objects are a dialect of JSON Schema, not JSON Schema documents, so Ajv
 * needs four small adaptations (`adaptSchema`):
 * - `$ref: '#/definitions/X'` points into the Swagger file, which is not a schema; the
 *   definitions become one schema document with an `$id`, and every reference names it.
 * - Swagger-only keys (`x-...` vendor extensions, `discriminator`, `xml`, `externalDocs`,
 *   `example`) are unknown keywords to a strict validator; they are dropped.
 * - Swagger's formats (`int32`, `int64`, `float`, `double`, `byte`, `date-time`) are declared
 *   to Ajv here (`date-time` as RFC 3339, the others as ranges or no check).
 * - Objects are closed (`additionalProperties: false`) so that a field whose name differs
 *   between our answer and the file is caught; the specification's fields that the file does
 *   not know are listed per definition by the caller (`extraFields`).
 * Where the file is wrong against the specification, the caller corrects the definition
 * (`corrections`), and docs/api.md ("Clients of the original platform") says so.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

export type Schema = Record<string, unknown>;

export interface SwaggerOperation {
  operationId?: string;
  parameters?: Schema[];
  responses?: Record<string, { description?: string; schema?: Schema }>;
  consumes?: string[];
  produces?: string[];
}

export interface SwaggerFile {
  basePath: string;
  produces: string[];
  paths: Record<string, Record<string, SwaggerOperation>>;
  definitions: Record<string, Schema>;
}

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'reference-swagger-2016.json');

export function loadSwagger2016(): SwaggerFile {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as SwaggerFile;
}

/** `get /jobs/{uuid}`: how the operations of the file are named in the tests. */
export type OperationKey = `${'get' | 'post' | 'put' | 'delete'} /${string}`;

export function operations(swagger: SwaggerFile): OperationKey[] {
  const out: OperationKey[] = [];
  for (const [path, ops] of Object.entries(swagger.paths)) {
    for (const method of Object.keys(ops)) {
      if (['get', 'post', 'put', 'delete'].includes(method)) out.push(`${method} ${path}` as OperationKey);
    }
  }
  return out;
}

const SWAGGER_ONLY = new Set(['discriminator', 'xml', 'externalDocs', 'example']);
const ID = 'https://platform.invalid/reference-swagger-2016.json';

/** A Swagger schema object as a JSON Schema whose references name the definitions document. */
export function adaptSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(adaptSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k.startsWith('x-') || SWAGGER_ONLY.has(k)) continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')) out[k] = ID + v;
    // `properties` maps names to schemas: adapt each, keep the names even when they look like keywords.
    else if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, s]) => [name, adaptSchema(s)]));
    } else out[k] = adaptSchema(v);
  }
  return out;
}

export interface ValidatorOptions {
  /** Fields of the specification that the file does not know, by definition name. */
  extraFields?: Record<string, readonly string[]>;
  /** Definitions rewritten where the file is wrong against the specification. */
  corrections?: Record<string, (definition: Schema) => Schema>;
}

const INT32 = 2 ** 31;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export class SwaggerValidator {
  /** The definitions as validated: adapted, corrected, closed. */
  readonly definitions: Record<string, Schema>;
  /** The definitions as the generated models have them: adapted and corrected, open. */
  readonly #models: Record<string, Schema> = {};
  readonly #ajv: Ajv;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(
    readonly swagger: SwaggerFile,
    o: ValidatorOptions = {},
  ) {
    const definitions: Record<string, Schema> = {};
    for (const [name, raw] of Object.entries(swagger.definitions)) {
      let def = adaptSchema(raw) as Schema;
      const fix = o.corrections?.[name];
      if (fix) def = fix(structuredClone(def));
      this.#models[name] = def;
      if (def['properties'] && def['additionalProperties'] === undefined) {
        const extra = o.extraFields?.[name] ?? [];
        def = { ...def, properties: { ...(def['properties'] as Schema), ...Object.fromEntries(extra.map((f) => [f, {}])) }, additionalProperties: false };
      }
      definitions[name] = def;
    }
    for (const name of [...Object.keys(o.corrections ?? {}), ...Object.keys(o.extraFields ?? {})]) {
      if (!(name in swagger.definitions)) throw new Error(`no definition ${name} in the Swagger file`);
    }
    this.definitions = definitions;
    // strictTypes off: the file writes `properties` without `type: object` throughout.
    this.#ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    this.#ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
    this.#ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    this.#ajv.addFormat('float', { type: 'number', validate: () => true });
    this.#ajv.addFormat('double', { type: 'number', validate: () => true });
    this.#ajv.addFormat('byte', { type: 'string', validate: () => true });
    this.#ajv.addFormat('date-time', { type: 'string', validate: (s: string) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)) });
    this.#ajv.addSchema({ $id: ID, definitions });
  }

  /** The response schema the file gives an operation for a status, if any. */
  responseSchema(op: OperationKey, status: number): Schema | undefined {
    const [method, path] = op.split(' ') as [string, string];
    const operation = this.swagger.paths[path]?.[method];
    if (!operation) throw new Error(`no operation ${op} in the Swagger file`);
    return operation.responses?.[String(status)]?.schema;
  }

  /** A definition by name, or an array of it (`Job[]`). */
  named(name: string): Schema {
    const array = name.endsWith('[]');
    const def = array ? name.slice(0, -2) : name;
    if (!(def in this.definitions)) throw new Error(`no definition ${def} in the Swagger file`);
    const ref = { $ref: `${ID}#/definitions/${def}` };
    return array ? { type: 'array', items: ref } : ref;
  }

  /** The validation errors of `value` against a schema of the file (adapted), as readable lines. */
  validate(schema: Schema, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let fn = this.#compiled.get(key);
    if (!fn) this.#compiled.set(key, (fn = this.#ajv.compile(adaptSchema(schema) as Schema)));
    if (fn(value)) return [];
    return (fn.errors ?? []).map(describe);
  }

  /** Follows a `$ref` to its (model) definition. */
  #resolve(schema: Schema): Schema {
    const ref = schema['$ref'];
    if (typeof ref !== 'string') return schema;
    const def = this.#models[ref.slice(ref.lastIndexOf('/') + 1)];
    if (!def) throw new Error(`unresolved reference ${ref}`);
    return def;
  }

  /**
   * What a client generated from the file sends back after reading `value` into its model
   * (swagger-codegen's Node client, `ApiClient.convertToType` then `JSON.stringify`): fields
   * the model does not define are gone, strings become `String(v)`, integers `parseInt`,
   * numbers `parseFloat`, booleans `Boolean(v)`, dates `new Date(v)` (milliseconds, `Z`);
   * absent and null fields are left out. This is the body of its PUT after a GET.
   */
  throughModel(schema: Schema, value: unknown): unknown {
    const s = this.#resolve(schema);
    if (value === null || value === undefined) return undefined;
    const type = s['type'];
    const props = s['properties'] as Record<string, Schema> | undefined;
    if (props || type === 'object') {
      if (typeof value !== 'object' || Array.isArray(value)) return undefined;
      const extra = s['additionalProperties'];
      // A free-form object (`type: object` alone) is kept as it is.
      if (!props && !(extra && typeof extra === 'object')) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const sub = props ? props[k] : extra && typeof extra === 'object' ? (extra as Schema) : undefined;
        if (!sub) continue;
        const converted = this.throughModel(sub, v);
        if (converted !== undefined) out[k] = converted;
      }
      return out;
    }
    if (type === 'array') {
      if (!Array.isArray(value)) return undefined;
      const items = (s['items'] as Schema | undefined) ?? {};
      return value.map((v) => this.throughModel(items, v));
    }
    switch (type) {
      case 'string':
        return s['format'] === 'date-time' ? new Date(String(value)).toISOString() : String(value);
      case 'integer':
        return Number.parseInt(String(value), 10);
      case 'number':
        return Number.parseFloat(String(value));
      case 'boolean':
        return Boolean(value);
      default:
        return value;
    }
  }
}

function describe(e: ErrorObject): string {
  const where = e.instancePath || '(the body)';
  if (e.keyword === 'additionalProperties') return `${where}: field "${String(e.params['additionalProperty'])}" is not in the Swagger definition`;
  return `${where}: ${e.message ?? e.keyword}${e.keyword === 'enum' ? ` ${JSON.stringify(e.params['allowedValues'])}` : ''}`;
}
