/**
 * Parsing of query parameters, refusing malformed values with a 400.
 *
 * A list parameter (`tag`, `ids`, ...) is accepted in each form that clients
 * send, and the forms may be mixed; the values keep their order:
 *
 *   tag=a,b            comma-separated (the Swagger 2.0 default, `csv`)
 *   tag=a&tag=b        repeated (`multi`)
 *   tag[]=a&tag[]=b    bracketed, as query-string libraries of PHP, Rails and jQuery write arrays
 *   tag[0]=a&tag[1]=b  indexed, in index order
 */
import type { ParsedUrlQuery } from 'node:querystring';
import { InvalidRequestError } from '../errors.js';
import { parseFqn, type Fqn, type ResourceType } from '../model/fqn.js';
import { requireUuid } from '../model/validate.js';
import { queryValue, type ApiContext } from './endpoint.js';

const INDEXED = /^(.+)\[(\d{0,6})\]$/;

/** The raw values of a list parameter in all its forms, in order; undefined when absent. */
export function rawListValues(query: ParsedUrlQuery, name: string): string[] | undefined {
  const asList = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  let found = query[name] !== undefined;
  const values = asList(query[name]);
  const indexed: [number, string[]][] = [];
  for (const key of Object.keys(query)) {
    const m = INDEXED.exec(key);
    if (!m || m[1] !== name) continue;
    found = true;
    if (m[2] === '') values.push(...asList(query[key]));
    else indexed.push([Number(m[2]), asList(query[key])]);
  }
  indexed.sort((a, b) => a[0] - b[0]);
  for (const [, v] of indexed) values.push(...v);
  return found ? values : undefined;
}

/**
 * A list parameter: its comma-separated values in every form above, trimmed, empty ones
 * dropped; undefined when the parameter is absent in every form.
 */
export function queryList(ctx: ApiContext, name: string): string[] | undefined {
  const raw = rawListValues(ctx.query, name);
  if (raw === undefined) return undefined;
  return raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function queryBool(ctx: ApiContext, name: string): boolean {
  const v = queryValue(ctx, name);
  if (v === undefined) return false;
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new InvalidRequestError(`query ${name}: "${v}" is not a boolean`);
}

export function queryInt(ctx: ApiContext, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = queryValue(ctx, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d{1,16}$/.test(v)) throw new InvalidRequestError(`query ${name}: "${v}" is not an integer`);
  const n = Number(v);
  if (n < min || n > max) throw new InvalidRequestError(`query ${name}: ${n} is outside ${min}..${max}`);
  return n;
}

/** An FQN query parameter of the given type; a namespace FQN is allowed when `partial`. */
export function queryFqn(ctx: ApiContext, name: string, type: ResourceType, partial: boolean): Fqn | undefined {
  const v = queryValue(ctx, name);
  if (v === undefined || v === '') return undefined;
  return parseFqn(v, { type, localName: partial ? 'optional' : 'required', field: `query ${name}` });
}

/** A list of uuids in any list form; undefined when absent, 400 when one is not a uuid. */
export function queryUuids(ctx: ApiContext, name: string): string[] | undefined {
  return queryList(ctx, name)?.map((v) => requireUuid(v, `query ${name}:`));
}
