/** Parsing of query parameters, refusing malformed values with a 400. */
import { InvalidRequestError } from '../errors.js';
import { parseFqn, type Fqn, type ResourceType } from '../model/fqn.js';
import { requireUuid } from '../model/validate.js';
import { queryValue, queryValues, type ApiContext } from './endpoint.js';

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

export function queryUuids(ctx: ApiContext, name: string): string[] | undefined {
  const values = queryValues(ctx, name);
  if (ctx.query[name] === undefined) return undefined;
  return values.map((v) => requireUuid(v, `query ${name}:`));
}
