/**
 * Persisted state headers (spec: stager-and-gateway-api.md, "Persisted state
 * headers"). A gateway keeps no store of its own: it returns what it must
 * remember about a provider, a service or a binding in `X-Provider-State`,
 * `X-Service-State` or `X-Binding-State`; the cluster stores the value as it is
 * and sends it on every later request about the same object. A value is
 * URL-safe Base64 of at most 4 KB.
 *
 * `encodeState`/`decodeState` turn any JSON value into such a header and back.
 * The gateway server wraps a handler's state in an envelope `{id, state}` so
 * that a later request naming an id whose state is not sent with it is a 404
 * (the gateway never issued that id, or the caller lost its state).
 */
import { GatewayStateError } from './errors.js';

export const STATE_HEADERS = {
  provider: 'X-Provider-State',
  service: 'X-Service-State',
  binding: 'X-Binding-State',
} as const;

export type StateKind = keyof typeof STATE_HEADERS;

/** State header values by kind, as the cluster stores them and sends them back. */
export type States = Partial<Record<StateKind, string>>;

/** Limit of a state header value (spec: 4 KB, URL-safe Base64). */
export const MAX_STATE_BYTES = 4096;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** True when `value` may be sent in a state header: URL-safe Base64 of at most 4 KB. */
export function isStateHeaderValue(value: string): boolean {
  return value.length > 0 && value.length <= MAX_STATE_BYTES && BASE64URL.test(value);
}

/** Encodes gateway state for a state header, refusing values over the limit. */
export function encodeState(state: unknown): string {
  const json = JSON.stringify(state);
  if (json === undefined) throw new GatewayStateError('state must be a JSON value');
  const encoded = Buffer.from(json, 'utf8').toString('base64url');
  if (encoded.length > MAX_STATE_BYTES) {
    throw new GatewayStateError(`state encodes to ${encoded.length} bytes; the limit is ${MAX_STATE_BYTES}`);
  }
  return encoded;
}

/** Decodes a state header value; undefined when the header was absent or empty. */
export function decodeState<T = unknown>(header: string | undefined): T | undefined {
  if (header === undefined || header === '') return undefined;
  if (!isStateHeaderValue(header)) {
    throw new GatewayStateError('state header is not URL-safe Base64 of at most 4 KB');
  }
  try {
    return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as T;
  } catch (err) {
    throw new GatewayStateError('state header does not hold JSON', { cause: err });
  }
}

/** What the gateway server puts in a state header: the object's id and the handler's state. */
export interface StateEnvelope<T> {
  id: string;
  state: T;
}

/** Encodes a handler's state with the id it belongs to. */
export function encodeEnvelope<T>(id: string, state: T): string {
  return encodeState({ id, state: state ?? null } satisfies StateEnvelope<T | null>);
}

/** Decodes an envelope; throws GatewayStateError when the value is not one. */
export function decodeEnvelope<T>(header: string | undefined): StateEnvelope<T> | undefined {
  const value = decodeState<Partial<StateEnvelope<T>>>(header);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || typeof value.id !== 'string' || !('state' in value)) {
    throw new GatewayStateError('state header was not issued by a gateway built with this SDK');
  }
  return value as StateEnvelope<T>;
}
